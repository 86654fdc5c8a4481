/**
 * Background results put and taken by one instance while another's subscriber connection was
 * down: their messages never reached that instance. Once its hub has the channel again, its
 * mirror reads Redis back: the result put meanwhile is delivered there, the one taken
 * meanwhile is not delivered a second time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { SharedResults } from '../../src/backend/shared-results.js';
import { withHubsDown } from './hubs-down.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('the waiting background results after the subscriber connection dropped', () => {
  let redis: RedisServer | undefined;
  let a: RedisBackend | undefined;
  let b: RedisBackend | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    a = await redisBackend({ url: redis.url, prefix: 'reloadresults', retentionMs: 60_000 });
    b = await redisBackend({ url: redis.url, prefix: 'reloadresults', retentionMs: 60_000 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });
  const result = (taskId: string, sessionId: string): TaskInfo => ({ taskId, agentName: 'alpha', description: 'd', sessionId, parentRunId: 'run_1', background: true, state: 'done', startedAt: 1000, endedAt: 2000, result: `answer of ${taskId}` });

  it('delivers the result put meanwhile, and not the one taken meanwhile', async () => {
    const ra = await SharedResults.create(a!.parts.redis, a!.parts.keys, a!.parts.hub);
    const rb = await SharedResults.create(b!.parts.redis, b!.parts.keys, b!.parts.hub);
    try {
      ra.results.put(result('task_before', 'conv_taken'));
      await waitFor(() => rb.results.size === 1);
      const admin = a!.parts.redis;
      const keys = a!.parts.keys;
      await withHubsDown(admin, keys.resultsChannel, 2, async () => {
        ra.results.put(result('task_during', 'conv_put'));
        expect(ra.results.take('conv_taken').map((t) => t.taskId)).toEqual(['task_before']);
        await ra.results.dropAll('conv_taken'); // sends the take now, not at the end of a turn
        await waitFor(async () => (await admin.hlen(keys.results('conv_put'))) === 1 && (await admin.exists(keys.results('conv_taken'))) === 0);
      });
      await waitFor(() => rb.results.size === 1 && rb.results.take('conv_put').length === 1);
      expect(rb.results.take('conv_taken')).toEqual([]);
    } finally {
      ra.stop();
      rb.stop();
    }
  });
});
