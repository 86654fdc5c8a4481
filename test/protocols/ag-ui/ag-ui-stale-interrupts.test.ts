/**
 * An AG-UI run never asks the client about an approval decided while the thread was parked
 * (through the runs API, or by its timeout): it goes on to the run's real end, and a resume
 * answering such an approval is reported, not dropped.
 */
import { describe, expect, it } from 'vitest';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { outcomeOf, postRunAgentInput, user, type WireEvent } from './ag-ui-requests.js';

const agUi = agUiServerPerTest();
const TWO = [
  { index: 1, agent_name: 'alpha', prompt: 'one', description: 'Task one' },
  { index: 2, agent_name: 'alpha', prompt: 'two', description: 'Task two' },
];
// The main agent sends two subagents; each asks approval for a bash call.
const SCRIPTS = {
  main: (turn: { step: number }) => (turn.step === 1 ? { toolCalls: [{ id: 'call_multi', name: 'multitask', arguments: { tasks: TWO } }] } : { text: 'main done' }),
  alpha: (turn: { step: number; prompt: string }) => (turn.step === 1 ? { toolCalls: [{ id: 'call_0', name: 'bash', arguments: { command: `echo ${turn.prompt}` } }] } : { text: 'alpha done' }),
};
const base = { threadId: 't1', messages: [user('go')], tools: [], context: [], state: {}, forwardedProps: {} };
const customs = (events: readonly WireEvent[], name: string): Array<Record<string, unknown>> =>
  events.filter((e) => e.type === 'CUSTOM' && e['name'] === name).map((e) => e['value'] as Record<string, unknown>);

describe('AG-UI interrupts for approvals decided elsewhere', () => {
  it('does not ask about an approval answered through the runs API: the run goes on to its end', async () => {
    const served = await agUi.serve(SCRIPTS);
    const first = await postRunAgentInput(served.url, { ...base, runId: 'r1' });
    const interrupts = outcomeOf(first)!['interrupts'] as Array<{ id: string }>;
    expect(interrupts).toHaveLength(1);
    const a = interrupts[0]!.id;
    const runId = served.engine.runs.list()[0]!.runId;
    await expect.poll(() => served.engine.runs.pendingApprovals(runId).length, { timeout: 10_000 }).toBe(2);
    const b = served.engine.runs.pendingApprovals(runId).find((p) => p.approvalId !== a)!.approvalId;
    expect(await served.engine.runs.answer(runId, b, { decision: 'reject', comment: 'no' })).toBe(true);

    const second = await postRunAgentInput(served.url, { ...base, runId: 'r2', resume: [{ interruptId: a, status: 'resolved', payload: { decision: 'approve' } }] });
    // The run's own end (a RUN_FINISHED without an interrupt), not a question about a decided approval.
    expect(second.events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(outcomeOf(second)?.['type']).not.toBe('interrupt');
    // B shows as it happened: asked, then decided by someone else; the answer to A was taken.
    expect(customs(second.events, 'rxharness.HITLDecided').map((v) => [v['approvalId'], v['decision']])).toContainEqual([b, 'reject']);
    expect(customs(second.events, 'rxharness.ResumeNotApplied')).toEqual([]);
    expect(served.engine.runs.list()[0]!.state).toBe('done');
  }, 60_000);

  it('does not ask about approvals that timed out, and reports the answer that came too late', async () => {
    const served = await agUi.serve(SCRIPTS, { engine: { approvalTimeoutMs: 1500 } });
    const first = await postRunAgentInput(served.url, { ...base, runId: 'r1' });
    const a = (outcomeOf(first)!['interrupts'] as Array<{ id: string }>)[0]!.id;
    const runId = served.engine.runs.list()[0]!.runId;
    // The user deliberates past the timeout: the engine rejects both approvals, and the run ends.
    await expect.poll(() => served.engine.runs.list()[0]!.state, { timeout: 10_000 }).toBe('done');

    const second = await postRunAgentInput(served.url, { ...base, runId: 'r2', resume: [{ interruptId: a, status: 'resolved', payload: { decision: 'approve' } }] });
    // The run's own end (a RUN_FINISHED without an interrupt), not a question about a decided approval.
    expect(second.events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(outcomeOf(second)?.['type']).not.toBe('interrupt');
    expect(customs(second.events, 'rxharness.ResumeNotApplied')).toEqual([expect.objectContaining({ interruptId: a })]);
    expect(served.engine.runs.pendingApprovals(runId)).toEqual([]);
  }, 60_000);
});
