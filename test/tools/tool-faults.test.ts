import { afterEach, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/tools/tool.js';
import { own } from '../support/collect-events.js';
import type { AgentRoute, DelegationFixture } from '../support/delegation-fixture.js';
import { expectBatchOutcome, faultyChildEvents, startFaultRun } from '../support/fault-batch.js';
import { echoTool, throwingTool } from '../support/test-tools.js';

// Faults of tools and step limits, met by one child of a three-task multitask. A tool's
// failure is a result the child's model reads (the run goes on), so the child's task is a
// failure only when the child itself fails; either way the cause reaches the parent.

let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Calls `tool` once, then answers with what the tool returned. */
function callOnceThenReport(tool: string): AgentRoute {
  return (turn) => (turn.step === 1 ? { toolCalls: [{ name: tool, arguments: {} }] } : { text: `gave up: ${turn.toolResults.at(-1)}` });
}

describe('a child meets a tool fault; the parent ends once, the siblings keep their results', () => {
  it('a tool that throws: the child reads the error, and its result names it', async () => {
    const started = await startFaultRun({ faulty: callOnceThenReport('explode'), engine: { tools: [throwingTool('disk on fire')] } });
    fixture = started.fixture;
    await expectBatchOutcome(started.run, { status: 'success', content: /^gave up: ERROR: The explode tool failed: disk on fire$/ });
    const child = faultyChildEvents(started.run.events);
    expect(own(child, 'ToolCallEnd')).toEqual([expect.objectContaining({ toolName: 'explode', error: 'The explode tool failed: disk on fire' })]);
    // Only the faulty child had the tool called.
    expect(fixture.requestsOf('faulty')).toHaveLength(2);
  });

  it('a tool that hangs past toolTimeoutMs: its signal is aborted at the deadline; the multitask itself is not cut', async () => {
    const timeoutMs = 300;
    let startedAt = 0;
    let abortedAt = 0;
    let signal: AbortSignal | undefined;
    const stall: Tool = {
      name: 'stall',
      description: 'Never settles.',
      parameters: { type: 'object' },
      execute: (_args, context) => {
        startedAt = Date.now();
        signal = context.signal;
        signal.addEventListener('abort', () => (abortedAt = Date.now()), { once: true });
        return new Promise<string>(() => undefined);
      },
    };
    const started = await startFaultRun({ faulty: callOnceThenReport('stall'), engine: { tools: [stall], toolTimeoutMs: timeoutMs } });
    fixture = started.fixture;
    await expectBatchOutcome(started.run, {
      status: 'success',
      content: new RegExp(`^gave up: ERROR: The stall tool failed: it did not finish within ${timeoutMs} ms and was stopped$`),
    });
    expect(signal?.aborted).toBe(true);
    // That the deadline is toolTimeoutMs to the millisecond is pinned on virtual time
    // (test/tools/tool-timeout-override.test.ts); here: aborted, and in time.
    expect(abortedAt).toBeGreaterThan(startedAt);
    // Aborted before the child went on to its next model request.
    const [, next] = fixture.requestsOf('faulty');
    expect(abortedAt).toBeLessThanOrEqual(next!.startedAt);
    const end = own(faultyChildEvents(started.run.events), 'ToolCallEnd')[0]!;
    expect(end).toMatchObject({ toolName: 'stall', error: expect.stringContaining(`within ${timeoutMs} ms`) });
    // The parent's multitask call took longer than toolTimeoutMs and still finished normally.
    const multitask = own(started.run.events, 'ToolCallEnd').find((e) => e.toolName === 'multitask')!;
    expect(multitask.error).toBeUndefined();
  });

  it('a child that keeps calling tools past its maxSteps: a failure result naming the step limit', async () => {
    const echo = echoTool();
    const started = await startFaultRun({
      faulty: () => ({ toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] }),
      faultyAgent: { maxSteps: 2 },
      engine: { tools: [echo] },
    });
    fixture = started.fixture;
    await expectBatchOutcome(started.run, {
      status: 'failure',
      content: /^ERROR: the faulty task ended abnormally: .*step limit \(maxSteps 2\).*still asked for tools \(echo\)/,
    });
    // Step 1 ran the tool; step 2, the last, offered no tools, and its tool call was not run.
    const requests = fixture.requestsOf('faulty');
    expect(requests.map((r) => (r.body.tools ?? []).length > 0)).toEqual([true, false]);
    expect(echo.calls).toHaveLength(1);
    expect(faultyChildEvents(started.run.events).at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, steps: 2 });
  });
});
