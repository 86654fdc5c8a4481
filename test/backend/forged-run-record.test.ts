import { describe, expect, it } from 'vitest';
import { steps } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

/**
 * Every engine keeps a copy of the others' run records from the runs channel, where anyone
 * with access to the Redis can publish. A record of a run this engine runs itself, sent by
 * someone else naming another owner (or forgetting it), is a lie: believed, the owner stopped
 * taking other engines' answers to its own approvals (they were withdrawn as if it were
 * busy, or "refused" by the engine named), and its dead-owner sweep would fail its own live
 * run for a missing heartbeat of the owner named. The owner keeps its record and says it again.
 */
describe.skipIf(!HAS_REDIS)('a forged record of a running run', () => {
  const scale = useScaleKits();

  for (const op of ['put', 'forget'] as const) {
    it(`(${op}) does not take the run from its owner: another engine's answer to its approval still applies`, async () => {
      const k = await scale.kit();
      k.fixture.route({ main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }) });
      const owner = await k.engine();
      const otherBackend = await k.backend({ answerWaitMs: 2000 });
      const other = await k.engine({}, [], otherBackend);
      const run = owner.start('go');
      await waitFor(() => other.runs.pendingApprovals(run.runId).length === 1);
      const [waiting] = other.runs.pendingApprovals(run.runId);
      const redis = (await k.backend()).parts.redis;
      // It names a live engine as the owner (a dead one's run would also be swept as failed).
      const record = { info: { ...owner.runs.get(run.runId)! }, pending: [waiting], owner: otherBackend.runs.instanceId };
      const lie = op === 'put' ? { op, record } : { op, runId: run.runId };
      await redis.publish(`${k.prefix}:runs-events`, JSON.stringify(lie));
      // Published after the lie on the same channel, the answer reaches every engine after it.
      expect(owner.runs.get(run.runId)?.state).toBe('running');
      expect(await other.runs.answer(run.runId, waiting!.approvalId, { decision: 'approve' })).toBe(true);
      expect((await run.result).text).toContain('approved-run');
    });
  }
});
