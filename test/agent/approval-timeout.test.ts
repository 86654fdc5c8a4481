import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { toUiItem } from '../../src/adapters/ui-dto.js';
import { terminalApproval } from '../../src/adapters/terminal-approval.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { record } from '../support/collect-events.js';
import { deepEvents, lastToolMessages } from '../support/approval-kit.js';
import { askingEnginesPerTest, MINUTE } from './asking-engine.js';

// approvalTimeoutMs (issue 23.4), in virtual time: vitest's fake timers drive the deadline.

const { askingEngine, newSandbox } = askingEnginesPerTest();

/** Lets promise callbacks run (no virtual time passes) until `check` holds. */
async function settle(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await vi.advanceTimersByTimeAsync(0);
  expect(check()).toBe(true);
}

const decided = (events: readonly AgentEvent[]) => deepEvents(events, 'HITLDecided');

describe('approvalTimeoutMs', () => {
  it('an approval of a started run unanswered in time is rejected: the model reads why, its card goes, HITLDecided says timedOut', async () => {
    const { engine, model, echo } = await askingEngine({ approvalTimeoutMs: 10 * MINUTE });
    const run = engine.start('go');
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e.event));
    await settle(() => engine.runs.pendingApprovals(run.runId).length === 1);

    await vi.advanceTimersByTimeAsync(10 * MINUTE - 1);
    expect(engine.runs.pendingApprovals(run.runId)).toHaveLength(1); // not a moment early
    expect(decided(events)).toEqual([]);

    await vi.advanceTimersByTimeAsync(1);
    await settle(() => decided(events).length === 1);
    expect(decided(events)[0]).toMatchObject({ decision: 'reject', timedOut: true, callId: 'call_0', comment: 'timed out waiting for approval: nobody answered within 10 min' });
    expect(engine.runs.pendingApprovals(run.runId)).toEqual([]); // an answer now finds nothing
    expect(toUiItem(events.find((e) => e.type === 'TaskWrap' && e.event.type === 'HITLDecided')!)).toMatchObject({ kind: 'approval-decided', timedOut: true });
    const result = await run.result;
    expect(echo.calls).toEqual([]);
    const read = lastToolMessages(model.requests, 'worker');
    expect(read).toEqual(['ERROR: The echo call did not run: it timed out waiting for approval: nobody answered within 10 min. Go on without it, or ask the user to run it.']);
    expect(result.abnormal).toBe(false);
  });

  it("withdraws the terminal's question, saying so; the next question is asked", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const { engine, echo } = await askingEngine({ approvalTimeoutMs: 90_000, approve: terminalApproval({ input, output }) });
    const run = record(engine.stream('go'));
    await settle(() => shown.includes('wants to run echo'));
    expect(input.listenerCount('data')).toBe(1);

    await vi.advanceTimersByTimeAsync(90_000);
    await run.done;
    expect(shown).toContain('(withdrawn: timed out, no answer within 90 s)');
    expect(input.listenerCount('data')).toBe(0); // nobody reads the terminal for it any more
    expect(decided(run.events)).toMatchObject([{ decision: 'reject', timedOut: true }]);
    expect(echo.calls).toEqual([]);
  });

  it('an answer in time decides as usual and leaves no timer behind', async () => {
    const { engine, echo } = await askingEngine({ approvalTimeoutMs: MINUTE });
    const run = engine.start('go');
    await settle(() => engine.runs.pendingApprovals(run.runId).length === 1);
    await vi.advanceTimersByTimeAsync(MINUTE - 1_000);
    const [waiting] = engine.runs.pendingApprovals(run.runId);
    expect(engine.runs.answer(run.runId, waiting!.approvalId, { decision: 'approve' })).toBe(true);
    await run.result;
    expect(echo.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('without it an approval waits as long as it takes', async () => {
    const { engine, echo } = await askingEngine({});
    const run = engine.start('go');
    await settle(() => engine.runs.pendingApprovals(run.runId).length === 1);
    await vi.advanceTimersByTimeAsync(7 * 24 * 60 * MINUTE);
    const [waiting] = engine.runs.pendingApprovals(run.runId);
    expect(waiting).toBeDefined();
    engine.runs.answer(run.runId, waiting!.approvalId, { decision: 'approve' });
    await run.result;
    expect(echo.calls).toHaveLength(1);
  });

  it('is checked like every engine option', async () => {
    const sandbox = await newSandbox();
    const model = new ScriptedModel([]);
    expect(() => new HarnessEngine({ model, workspace: sandbox.dir, approvalTimeoutMs: 0 })).toThrow('`approvalTimeoutMs` must be an integer of milliseconds from 1 to 2147483647 (the longest a timer holds, about 24.8 days), got 0');
  });
});
