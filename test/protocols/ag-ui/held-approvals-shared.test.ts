/**
 * On a shared backend another engine learns that an approval waits when the owner's record of
 * the run arrives. `runs.watchApprovals` signals that arrival, so an AG-UI stream holding the
 * approval (`HeldApprovals`) shows it then, without a timer; the listeners go at the run's end.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeldApprovals } from '../../../src/protocols/ag-ui/held-approvals.js';
import type { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { RunHandle } from '../../../src/runs/run-registry.js';
import { HAS_REDIS } from '../../backend/redis-server.js';
import { useScaleKits, waitFor, type ScaleKit } from '../../backend/scale-kit.js';
import { createGate, type Gate } from '../../support/deferred.js';

afterEach(() => void vi.useRealTimers());

describe.skipIf(!HAS_REDIS)('waiting approvals of another engine\'s run', () => {
  const scale = useScaleKits();

  /** An owner whose main agent asks approval for a bash call once `gate` opens, and another engine that sees the run running. */
  async function gatedRun(k: ScaleKit, gate: Gate): Promise<{ owner: HarnessEngine; other: HarnessEngine; run: RunHandle }> {
    k.fixture.route({
      main: async (turn) => (turn.step === 1 ? (await gate.promise, { toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }) : { text: 'main done' }),
    });
    const [owner, other] = [await k.engine(), await k.engine()];
    const run = owner.start('go');
    await waitFor(() => other.runs.get(run.runId)?.state === 'running');
    return { owner, other, run };
  }

  it('are signalled to a listener as the owner\'s record arrives, and its listeners go when the run ends', async () => {
    const gate = createGate();
    const { owner, other, run } = await gatedRun(await scale.kit(), gate);
    const heard: number[] = [];
    other.runs.watchApprovals(run.runId, () => heard.push(other.runs.pendingApprovals(run.runId).length));
    gate.open();
    await waitFor(() => heard.includes(1));
    expect(other.runs.approvalWatchers.count(run.runId)).toBe(1);
    expect(owner.runs.answer(run.runId, other.runs.pendingApprovals(run.runId)[0]!.approvalId, { decision: 'approve' })).toBe(true);
    expect((await run.result).text).toBe('main done');
    // The ended run's record came: heard (nothing waits), then its listeners were dropped.
    await waitFor(() => other.runs.approvalWatchers.count(run.runId) === 0);
    expect(heard.at(-1)).toBe(0);
  }, 30_000);

  it('show as an interrupt held before the record said they wait, with no interval timer firing', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const gate = createGate();
    const { owner, other, run } = await gatedRun(await scale.kit(), gate);
    const shown: string[] = [];
    const held = new HeldApprovals(other, run.runId, (interrupts) => shown.push(...interrupts.map((i) => i.id)));
    let offered: string | undefined;
    let notListedThere = false;
    // Offered on the other engine the moment the owner registers the wait: its record is published later.
    owner.runs.watchApprovals(run.runId, () => {
      const asked = owner.runs.pendingApprovals(run.runId)[0];
      if (asked === undefined || offered !== undefined) return;
      offered = asked.approvalId;
      notListedThere = other.runs.pendingApprovals(run.runId).length === 0;
      held.offer({ id: asked.approvalId, reason: 'tool_approval' });
    });
    gate.open();
    await waitFor(() => shown.length > 0);
    // Held at first (the other engine's copy did not list it yet), shown once the record came.
    expect(notListedThere).toBe(true);
    expect(shown).toEqual([offered]);
    expect(other.runs.approvalWatchers.count(run.runId)).toBe(0);
    expect(owner.runs.answer(run.runId, offered!, { decision: 'approve' })).toBe(true);
    await run.result;
  }, 30_000);
});
