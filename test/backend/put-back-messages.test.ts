/**
 * What a put-back's message on the results channel (`put` with `back`) may change in an
 * engine's copy. It used to un-take its result at once, before anything was read:
 *
 * - the engine's own put-back, read back from the channel after its next prompt took the
 *   result again, un-took that take, so the engine's own later put of the result (the one its
 *   task's end brings, after the worker's) was delivered a second time (Redis refused it);
 * - a forged one, naming the result's own conversation, un-took a result someone had taken,
 *   with the same end.
 *
 * Now a put-back un-takes a result only once Redis is read to hold it waiting again, and
 * never one this engine took itself (only its own put-back, made at once, gives that back).
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { RedisBackend } from '../../src/backend/redis-backend.js';
import { publishResult, SharedResults } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;

/** Everything sent so far answered, what the answers sent next answered too, and the messages published meanwhile applied. */
async function settled(...backends: RedisBackend[]): Promise<void> {
  for (let i = 0; i < 3; i++) for (const backend of backends) await caughtUp(backend);
}

describe.skipIf(!HAS_REDIS)("a put-back's message on the results channel", () => {
  const scale = useScaleKits();
  const t = Date.now();
  const info: TaskInfo = { taskId: 'task_a', agentName: 'explorer', description: 'd', sessionId: 'ses_p', parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 10, result: 'answer of task_a' };

  const engines = async (count: number): Promise<{ backends: RedisBackend[]; copies: SharedResults[]; stop: () => void }> => {
    const k = await scale.kit(STALL_MS);
    const backends: RedisBackend[] = [];
    const made: { results: SharedResults; stop: () => void }[] = [];
    for (let i = 0; i < count; i++) {
      const backend = await k.backend();
      backends.push(backend);
      made.push(await SharedResults.create(backend.parts.redis, backend.parts.keys, backend.parts.hub));
    }
    await publishResult(backends[0]!.parts.redis, backends[0]!.parts.keys, info); // the worker's put
    await settled(...backends);
    return { backends, copies: made.map((m) => m.results), stop: () => made.forEach((m) => m.stop()) };
  };

  it("read back by its own engine, does not undo that engine's next take of the result", async () => {
    const { backends, copies, stop } = await engines(1);
    const [backend, results] = [backends[0]!, copies[0]!];
    const { redis, keys } = backend.parts;
    try {
      const first = results.take('ses_p'); // prompt 1
      await settled(backend); // its take answered
      results.putBack('ses_p', first, undefined); // prompt 1 could not be saved
      expect(results.take('ses_p').map((r) => r.taskId)).toEqual(['task_a']); // prompt 2 delivers it
      await settled(backend); // the put-back, then the take, reached Redis; the put-back's message is applied
      expect(await redis.hkeys(keys.results('ses_p'))).toEqual([]);
      expect(results.wasTaken(info)).toBe(true);
      results.put(info); // the task's end reaches its launching engine: its own copy of the result
      expect(results.take('ses_p')).toEqual([]);
    } finally {
      stop();
    }
  });

  it('forged, naming its own conversation, does not un-take a result another engine took', async () => {
    const { backends, copies, stop } = await engines(2);
    const [a, b] = copies as [SharedResults, SharedResults]; // a launched the task
    const { keys } = backends[0]!.parts;
    const attacker = new Redis(scale.redis.url);
    try {
      expect(b.take('ses_p').map((r) => r.taskId)).toEqual(['task_a']); // delivered on engine b
      await settled(...backends); // engine a checked the take: Redis records it
      expect(a.size).toBe(0);
      await attacker.publish(keys.resultsChannel, JSON.stringify({ op: 'put', info, back: true }));
      await settled(...backends);
      expect(a.wasTaken(info)).toBe(true);
      expect(b.wasTaken(info)).toBe(true);
      a.put(info); // the task's end reaches its launching engine
      expect(a.take('ses_p')).toEqual([]);

      // A real put-back is still heeded: b's prompt could not be saved, the next runs on a.
      b.putBack('ses_p', [info], undefined);
      await settled(...backends);
      expect(a.take('ses_p').map((r) => r.taskId)).toEqual(['task_a']);
      await settled(...backends);
      expect(b.take('ses_p')).toEqual([]);
    } finally {
      attacker.disconnect();
      stop();
    }
  });

});
