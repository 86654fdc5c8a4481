/**
 * A conversation's record of its background results taken or dropped
 * (`<prefix>:results-gone:<session>`, results-gone.ts) was left by its delete to expire, a
 * week after the engine's forget renewed it as it took the results still waiting. The delete
 * now deletes it with the conversation's other keys, and no other conversation's.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { RedisKeys } from '../../src/backend/redis-keys.js';
import type { RedisSessionStore } from '../../src/backend/redis-session-store.js';
import { isRecordedGone } from '../../src/backend/results-gone.js';
import { SharedResults, publishResult } from '../../src/backend/shared-results.js';
import { takeWaitingResults } from '../../src/backend/waiting-result-take.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const t = Date.now();
const result = (taskId: string, sessionId: string): TaskInfo => ({ taskId, agentName: 'explorer', description: 'd', sessionId, parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 1, result: `answer of ${taskId}` });

/** A conversation with one message and one background result taken (so recorded gone). */
async function withTakenResult(redis: Redis, keys: RedisKeys, store: RedisSessionStore, sessionId: string): Promise<void> {
  await store.append(sessionId, [{ role: 'user', content: 'hi' }]);
  await publishResult(redis, keys, result(`${sessionId}_task`, sessionId));
  await takeWaitingResults(redis, keys, sessionId, [`${sessionId}_task\n${t}`], 'test');
}

describe.skipIf(!HAS_REDIS)("a conversation's delete and its record of results taken or dropped", () => {
  const file = redisBackendPerFile('deleteresultsgone', 60_000);

  it('the delete removes the record, and leaves another conversation its own', async () => {
    const { sessions, parts } = file.backend;
    const { redis, keys } = parts;
    await withTakenResult(redis, keys, sessions, 'conv_a');
    await withTakenResult(redis, keys, sessions, 'conv_b');
    expect(await redis.exists(keys.resultsGone('conv_a'))).toBe(1);
    await sessions.delete('conv_a');
    expect(await redis.exists(keys.resultsGone('conv_a'))).toBe(0);
    expect(await isRecordedGone(redis, keys, 'conv_b', `conv_b_task\n${t}`)).toBe(true);
  });

  it("the record the engine's forget renews just before the delete is gone with it", async () => {
    const { sessions, parts } = file.backend;
    const { redis, keys, hub } = parts;
    const { results, stop } = await SharedResults.create(redis, keys, hub);
    try {
      await sessions.append('conv_c', [{ role: 'user', content: 'hi' }]);
      results.put(result('conv_c_task', 'conv_c'));
      await waitFor(async () => (await redis.hlen(keys.results('conv_c'))) === 1);
      // What the engine's view of the store does: forget (its take records the result gone), then delete.
      results.forget('conv_c');
      await sessions.delete('conv_c');
      expect(await redis.exists(keys.resultsGone('conv_c'))).toBe(0);
      expect(await redis.hlen(keys.results('conv_c'))).toBe(0);
    } finally {
      stop();
    }
  });
});
