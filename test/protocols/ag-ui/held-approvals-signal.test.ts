/**
 * An approval's `HITLPending` is logged (and read by the AG-UI stream) before the approval
 * starts waiting, so the stream holds it until it waits. It hears that from the registry's
 * signal (`runs.watchApprovals`), not from a timer: with every interval timer frozen the
 * interrupt still shows, and no listener is left behind once the AG-UI run ends.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Interrupt } from '@ag-ui/core';
import { HeldApprovals } from '../../../src/protocols/ag-ui/held-approvals.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { createGate } from '../../support/deferred.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

const agUi = agUiServerPerTest();
const base = { threadId: 't1', messages: [user('go')], tools: [], context: [], state: {}, forwardedProps: {} };
// The main agent asks approval for one bash call, then ends.
const BASH = { main: (turn: { step: number }) => (turn.step === 1 ? { toolCalls: [{ id: 'call_0', name: 'bash', arguments: { command: 'echo hi' } }] } : { text: 'main done' }) };

afterEach(() => void vi.useRealTimers());

describe('AG-UI held approvals', () => {
  it('shows an approval as an interrupt once it waits, with no interval timer ever firing', async () => {
    // Only interval timers are frozen: the old 20 ms recheck never ran, and the AG-UI run never ended.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const served = await agUi.serve(BASH);
    const first = await postRunAgentInput(served.url, { ...base, runId: 'r1' });
    const interrupts = outcomeOf(first)?.['interrupts'] as Interrupt[] | undefined;
    expect(interrupts?.map((i) => i.id)).toEqual(served.engine.runs.list().flatMap((r) => served.engine.runs.pendingApprovals(r.runId).map((p) => p.approvalId)));
    const runId = served.engine.runs.list()[0]!.runId;
    // The AG-UI run ended on its interrupt: it listens no more.
    expect(served.engine.runs.approvalWatchers.count(runId)).toBe(0);

    const second = await postRunAgentInput(served.url, { ...base, runId: 'r2', resume: [{ interruptId: interrupts![0]!.id, status: 'resolved', payload: { decision: 'approve' } }] });
    expect(second.events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(served.engine.runs.list()[0]!.state).toBe('done');
    expect(served.engine.runs.approvalWatchers.count(runId)).toBe(0);
  }, 30_000);

  it('holds an approval not waiting yet, shows it as the registry signals it waits, and stops listening then', async () => {
    const gate = createGate();
    const served = await agUi.serve({ main: async () => (await gate.promise, { text: 'done' }) });
    const run = served.engine.start('go');
    const shown: string[] = [];
    const held = new HeldApprovals(served.engine, run.runId, (interrupts) => shown.push(...interrupts.map((i) => i.id)));
    held.offer({ id: 'approval_x', reason: 'tool_approval' });
    expect(shown).toEqual([]);
    expect(served.engine.runs.approvalWatchers.count(run.runId)).toBe(1);
    void served.engine.runs.approvals.wait(run.runId, { approvalId: 'approval_x', callId: 'call_0', toolName: 'bash', agentName: 'main' }, new AbortController().signal);
    expect(shown).toEqual(['approval_x']);
    expect(served.engine.runs.approvalWatchers.count(run.runId)).toBe(0);
    run.cancel();
  });

  it('hands what is still held to the next AG-UI run when this one ends otherwise, listening no more', async () => {
    const gate = createGate();
    const served = await agUi.serve({ main: async () => (await gate.promise, { text: 'done' }) });
    const run = served.engine.start('go');
    const held = new HeldApprovals(served.engine, run.runId, () => undefined);
    held.offer({ id: 'approval_y', reason: 'tool_approval' });
    expect(held.rest().map((i) => i.id)).toEqual(['approval_y']);
    expect(held.rest()).toEqual([]);
    expect(served.engine.runs.approvalWatchers.count(run.runId)).toBe(0);
    run.cancel();
  });
});
