import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../src/permission/approval.js';
import { testAgent } from '../support/agent-turns.js';
import { own, record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { echoTool } from '../support/test-tools.js';
import { makeSandbox, recordApprovals, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const callEcho = scriptedSteps({ toolCalls: [{ name: 'echo', args: { text: 'hello' } }] });

/**
 * An engine whose `echo` tool asks (it records every run, synchronously), and a handler that
 * stays pending until the test answers.
 */
async function pendingApproval(routes: Parameters<typeof sandboxEngine>[1], maxDepth = 1) {
  sandbox = await makeSandbox();
  const echo = echoTool();
  const asked = createGate();
  const answers: ((decision: ApprovalDecision) => void)[] = [];
  const human = recordApprovals(() => {
    asked.open();
    return new Promise<ApprovalDecision>((resolve) => answers.push(resolve));
  });
  const { engine } = await sandboxEngine(sandbox, routes, [testAgent('worker'), testAgent('leaf')], {
    tools: [echo],
    permissionRules: [{ tool: 'echo', action: 'ask' }],
    approve: human.approve,
    maxDepth,
  });
  /** Answers every pending request with approve, then lets promises and I/O callbacks run. */
  const approveLate = async (): Promise<void> => {
    for (const answer of answers) answer({ decision: 'approve' });
    for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { engine, echo, asked: asked.promise, human, approveLate };
}

describe('cancelled while an approval is pending', () => {
  it('unsubscribing aborts the handler signal; nothing is emitted after; the tool never runs', async () => {
    const { engine, echo, asked, human, approveLate } = await pendingApproval({ main: callEcho });
    const run = record(engine.stream('go'));
    await asked;
    expect(run.events.at(-1)).toMatchObject({ type: 'HITLPending', toolName: 'echo' });
    const seen = run.events.length;

    run.subscription.unsubscribe();
    expect(human.signals[0]!.aborted).toBe(true);

    await approveLate(); // a human answering after the cancel changes nothing
    expect(run.events).toHaveLength(seen);
    expect(own(run.events, 'HITLDecided')).toEqual([]);
    expect(echo.calls).toEqual([]);
    expect(run.completed).toBe(false);
  });

  it('aborting options.signal does the same, and the stream ends with AbortError', async () => {
    const { engine, echo, asked, human, approveLate } = await pendingApproval({ main: callEcho });
    const controller = new AbortController();
    const run = record(engine.stream('go', { signal: controller.signal }));
    await asked;
    const seen = run.events.length;

    controller.abort();
    await run.done;
    expect((run.error as Error).name).toBe('AbortError');
    expect(human.signals[0]!.aborted).toBe(true);
    await approveLate();
    expect(run.events).toHaveLength(seen);
    expect(echo.calls).toEqual([]);
  });

  it('cancelling the asking child by task id aborts its approval; the parent reads a failure and goes on', async () => {
    const { engine, echo, asked, human, approveLate } = await pendingApproval({
      main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('worker', 'echo it') }] }),
      worker: callEcho,
    });
    const run = record(engine.stream('go'));
    await asked;
    expect(engine.cancelTask(human.requests[0]!.taskId!)).toBe(true);
    expect(human.signals[0]!.aborted).toBe(true);

    await run.done;
    await approveLate();
    expect(echo.calls).toEqual([]);
    const decided = run.events.filter((e) => e.type === 'TaskWrap' && e.event.type === 'HITLDecided');
    expect(decided).toEqual([]);
    const taskEnd = own(run.events, 'ToolCallEnd')[0]!;
    expect(taskEnd.error).toContain('was cancelled before it finished');
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
  });

  it('unsubscribing while a grandchild waits for approval aborts its handler signal too', async () => {
    const { engine, echo, asked, human, approveLate } = await pendingApproval(
      {
        main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('worker', 'delegate on') }] }),
        worker: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('leaf', 'echo it') }] }),
        leaf: callEcho,
      },
      2,
    );
    const run = record(engine.stream('go'));
    await asked;
    expect(human.requests[0]).toMatchObject({ agentName: 'leaf', toolName: 'echo' });
    const seen = run.events.length;

    run.subscription.unsubscribe();
    expect(human.signals[0]!.aborted).toBe(true);
    await approveLate();
    expect(run.events).toHaveLength(seen);
    expect(echo.calls).toEqual([]);
    expect(engine.tasks.list().map((t) => t.state)).toEqual(['cancelled', 'cancelled']);
  });
});
