/**
 * A run's cancel travels on the runs channel, with its marker in Redis
 * (`<prefix>:run-cancelled:<run>`), which the engine serving it reads back before it cancels
 * (runs-channel-forged.test.ts). Every engine serving runs used to read it, one `EXISTS` each
 * per cancel, and hand the cancel to registries that do not run it. Now only the instance
 * that runs it (publishes its record) reads the marker and cancels.
 */
import { describe, expect, it } from 'vitest';
import { RedisSharedRuns } from '../../src/backend/redis-shared-runs.js';
import type { RunOwner } from '../../src/runs/shared-runs.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;

/** A registry that runs `runIds` and records the cancels handed to it. */
function owner(runIds: readonly string[]): RunOwner & { cancels: string[] } {
  const cancels: string[] = [];
  return {
    cancels,
    cancel: (runId) => {
      cancels.push(runId);
      return runIds.includes(runId);
    },
    answer: () => false,
  };
}

describe.skipIf(!HAS_REDIS)("a run's cancel from another engine", () => {
  const scale = useScaleKits();

  it('is read back and served by the instance running the run only', async () => {
    const k = await scale.kit(STALL_MS);
    const backends = [await k.backend(), await k.backend(), await k.backend()];
    const { keys } = backends[0]!.parts;
    const made = await Promise.all(backends.map((b, i) => RedisSharedRuns.create(b.parts.redis, keys, b.parts.hub, `engine_${i}`)));
    const [running, canceller, bystander] = made.map(({ runs }) => runs) as [RedisSharedRuns, RedisSharedRuns, RedisSharedRuns];
    const owners = [owner(['run_c']), owner([]), owner([])];
    made.forEach(({ runs }, i) => runs.serve(owners[i]!));
    try {
      running.publish({ info: { runId: 'run_c', sessionId: 'ses_c', agentName: 'main', state: 'running', startedAt: Date.now() }, pending: [] });
      await waitFor(() => canceller.get('run_c') !== undefined && bystander.get('run_c') !== undefined);
      const exists = async (): Promise<number> => Number(/^cmdstat_exists:calls=(\d+)/m.exec(await backends[0]!.parts.redis.info('commandstats'))?.[1] ?? 0);
      const before = await exists();
      expect(canceller.cancel('run_c')).toBe(true);
      await waitFor(() => owners[0]!.cancels.length === 1);
      for (const b of backends) await caughtUp(b);
      expect(owners[0]!.cancels).toEqual(['run_c']);
      expect(owners[1]!.cancels).toEqual([]);
      expect(owners[2]!.cancels).toEqual([]);
      expect((await exists()) - before).toBe(1);
    } finally {
      for (const { stop } of made) stop();
    }
  });
});
