/**
 * A put-back (a prompt that could not be saved) is sent once its take answers, for the place
 * each result held in the bound's order. A take made meanwhile (the conversation's next
 * prompt, or its deletion) used to be sent at once and reach Redis first: take, take,
 * put-back. The put-back then wrote back a result the next prompt had delivered (it waited
 * in Redis again and was delivered twice), or one of a conversation deleted. Now a later take
 * of the conversation waits until its put-backs are sent: Redis gets them in the order made.
 */
import { describe, expect, it } from 'vitest';
import type { RedisBackend } from '../../src/backend/redis-backend.js';
import { publishResult, SharedResults } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;

/** The turns that send the takes made in this one (`DeferredTakes`): no I/O comes between, so Redis has answered none of them. */
const turnEnds = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** Everything sent so far answered, what answers send next sent and answered, and its announcements applied. */
async function settled(backend: RedisBackend): Promise<void> {
  await backend.parts.redis.ping(); // the first take answered
  await new Promise((resolve) => setImmediate(resolve)); // its put-back sent
  await backend.parts.redis.ping();
  await new Promise((resolve) => setImmediate(resolve));
  await caughtUp(backend);
  await caughtUp(backend);
}

describe.skipIf(!HAS_REDIS)('a take made while a put-back waits for its place', () => {
  const scale = useScaleKits();
  const t = Date.now();
  const info: TaskInfo = { taskId: 'task_a', agentName: 'explorer', description: 'd', sessionId: 'ses_r', parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 10, result: 'answer of task_a' };

  const start = async (): Promise<{ backend: RedisBackend; results: SharedResults; stop: () => void }> => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys, hub } = backend.parts;
    const { results, stop } = await SharedResults.create(redis, keys, hub);
    await publishResult(redis, keys, info);
    await caughtUp(backend);
    await caughtUp(backend);
    return { backend, results, stop };
  };

  it('reaches Redis after it: a result the next prompt delivered is delivered once', async () => {
    const { backend, results, stop } = await start();
    const { redis, keys } = backend.parts;
    try {
      const first = results.take('ses_r'); // prompt 1
      expect(first.map((r) => r.taskId)).toEqual(['task_a']);
      await turnEnds(); // its take is sent, not answered
      results.putBack('ses_r', first, undefined); // prompt 1 could not be saved
      expect(results.take('ses_r').map((r) => r.taskId)).toEqual(['task_a']); // prompt 2 delivers it
      await turnEnds();
      await settled(backend);
      expect(await redis.hkeys(keys.results('ses_r'))).toEqual([]);
      expect(await redis.zcard(keys.waitingOrder)).toBe(0);
      expect(results.take('ses_r')).toEqual([]);
    } finally {
      stop();
    }
  });

  it('reaches Redis after it: a conversation dropped right after a put-back leaves no result waiting', async () => {
    const { backend, results, stop } = await start();
    const { redis, keys } = backend.parts;
    try {
      const first = results.take('ses_r');
      await turnEnds();
      results.putBack('ses_r', first, undefined);
      await results.dropAll('ses_r'); // the conversation is deleted
      await settled(backend);
      expect(await redis.hkeys(keys.results('ses_r'))).toEqual([]);
      expect(await redis.zcard(keys.waitingOrder)).toBe(0);
      expect(results.take('ses_r')).toEqual([]);
    } finally {
      stop();
    }
  });
});
