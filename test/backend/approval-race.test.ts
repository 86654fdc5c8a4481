/**
 * Two engines on one Redis answering the same approval at the same moment (issue 27,
 * review of item 5: "approvals lose their guarantees across instances"). Exactly one answer
 * decides the call; the other engine hears `false` (HTTP answers it "no approval ... is
 * pending"), instead of both being told they decided while one answer was silently lost.
 */
import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { RunHandle } from '../../src/runs/run-registry.js';
import { steps } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('one approval answered by two engines at once', () => {
  const scale = useScaleKits();

  /** An owner whose main agent waits for approval of `echo approved-run`, and two other engines that see it waiting. */
  async function racing(k: ScaleKit): Promise<{ owner: HarnessEngine; a: HarnessEngine; b: HarnessEngine; run: RunHandle; approvalId: string }> {
    k.fixture.route({ main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }) });
    const [owner, a, b] = [await k.engine(), await k.engine(), await k.engine()];
    const run = owner.start('go');
    await waitFor(() => [a, b].every((e) => e.runs.pendingApprovals(run.runId).length === 1));
    return { owner, a, b, run, approvalId: a.runs.pendingApprovals(run.runId)[0]!.approvalId };
  }

  it('from two other instances: exactly one is told it decided, and its decision is the one the run took', async () => {
    const k = await scale.kit();
    const { a, b, run, approvalId } = await racing(k);
    const events = eventsOf(a.runs.attach(run.runId).pipe(map(({ event }) => event)));
    const verdicts = await Promise.all([
      a.runs.answer(run.runId, approvalId, { decision: 'approve', comment: 'from a' }),
      b.runs.answer(run.runId, approvalId, { decision: 'reject', comment: 'from b' }),
    ]);
    expect(verdicts.filter((v) => v === true)).toHaveLength(1);
    const decided = (await events).filter((e) => e.type === 'HITLDecided');
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ approvalId, comment: verdicts[0] ? 'from a' : 'from b' });
    await run.result;
  });

  it('from the owner and another instance: the owner answers first, the other is told it lost', async () => {
    const k = await scale.kit();
    const { owner, a, run, approvalId } = await racing(k);
    const remote = a.runs.answer(run.runId, approvalId, { decision: 'reject', comment: 'from a' });
    expect(owner.runs.answer(run.runId, approvalId, { decision: 'approve', comment: 'from the owner' })).toBe(true);
    expect(await remote).toBe(false);
    expect((await run.result).text).toContain('approved-run');
  });
});

