/**
 * A put of a background result refuses a hash of waiting results of another type, before it
 * writes anything. That refusal is the script's own (a `scriptRefusal`): it reaches the user
 * as a `RedisBackendError` in its words, the key shown by `shownKey` (a session id may hold
 * line breaks and escapes), not as a bare reply error quoting the key raw, nor as a failure
 * of Redis.
 */
import { describe, expect, it } from 'vitest';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import { putWaitingResult } from '../../src/backend/waiting-result-put.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

describe.skipIf(!HAS_REDIS)('putWaitingResult on a hash of waiting results of another type', () => {
  const redisFile = redisBackendPerFile('putrefusal', 60_000);

  it('is refused in its own words, the key marked as shownKey marks it, and nothing is written', async () => {
    const { redis, keys } = redisFile.backend.parts;
    const sessionId = 'ses_\u001b[2J\nplanted';
    const info: TaskInfo = { taskId: 'task_1', agentName: 'explorer', description: 'd', sessionId, parentRunId: 'run_r', background: true, state: 'done', startedAt: 1, endedAt: 2, result: 'answer' };
    await redis.rpush(keys.results(sessionId), 'x');
    const refused = await putWaitingResult(redis, keys, info).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RedisBackendError.isInstance(refused)).toBe(true);
    const message = (refused as Error).message;
    expect(message).toBe(`${keys.results('ses_<U+001B>[2J<U+000A>planted')} is a list, not a hash of waiting results`);
    expect(await redis.lrange(keys.results(sessionId), 0, -1)).toEqual(['x']);
    expect(await redis.zcard(keys.waitingOrder)).toBe(0);
  });
});
