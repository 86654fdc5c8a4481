/**
 * The record of a conversation's taken or dropped background results
 * (`<prefix>:results-gone:<session>`, what refuses a late put of one and confirms a `taken`
 * or `dropped` message) was a hash whose whole expiry every take renewed: a conversation
 * active for months kept one field per result it ever had. Now each member has its own age
 * (Redis's time of its take or drop), and each take or drop trims the members older than a
 * result may wait and all but the newest `GONE_KEPT`; what it is for still holds.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { RedisKeys } from '../../src/backend/redis-keys.js';
import { GONE_KEPT } from '../../src/backend/results-gone.js';
import { publishResult } from '../../src/backend/shared-results.js';
import { takeWaitingResults } from '../../src/backend/waiting-result-take.js';
import { RESULT_TTL_MS, writeWaitingBound } from '../../src/backend/waiting-results-store.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** Redis's clock, in milliseconds: what the scripts score the record by. */
async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Makes a member of the record look taken (or dropped) `ms` earlier: Redis's clock cannot be moved. */
async function age(redis: Redis, key: string, member: string, ms: number): Promise<void> {
  const score = await redis.zscore(key, member);
  expect(score).not.toBeNull();
  await redis.zadd(key, 'XX', Number(score) - ms, member);
}

describe.skipIf(!HAS_REDIS)("the record of a conversation's taken and dropped results", () => {
  const scale = useScaleKits();
  const t = Date.now();
  const result = (taskId: string, sessionId: string): TaskInfo => ({ taskId, agentName: 'explorer', description: 'd', sessionId, parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 1, result: `answer of ${taskId}` });
  const take = (redis: Redis, keys: RedisKeys, sessionId: string, taskIds: readonly string[]): Promise<void> => takeWaitingResults(redis, keys, sessionId, taskIds.map((id) => `${id}\n${t}`), 'test').then(() => undefined);

  it('a take trims the members older than a result may wait, and keeps the newest; a late put of a recent one is still refused', async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const gone = keys.resultsGone('ses_a');
    await publishResult(redis, keys, result('task_old', 'ses_a'));
    await take(redis, keys, 'ses_a', ['task_old']);
    await age(redis, gone, `task_old\n${t}`, RESULT_TTL_MS + DAY_MS);

    await publishResult(redis, keys, result('task_new', 'ses_a'));
    await take(redis, keys, 'ses_a', ['task_new']);
    expect(await redis.zrange(gone, '0', '-1')).toEqual([`task_new\n${t}`]);
    // Each member's own age is kept, whatever later takes do to the key's expiry.
    const score = Number(await redis.zscore(gone, `task_new\n${t}`));
    expect(Math.abs(score - (await redisNow(redis)))).toBeLessThan(DAY_MS);
    expect(await redis.pttl(gone)).toBeGreaterThan(RESULT_TTL_MS - DAY_MS);

    await publishResult(redis, keys, result('task_new', 'ses_a')); // its worker's copy, late
    expect(await redis.hlen(keys.results('ses_a'))).toBe(0);
  });

  it(`holds the newest ${GONE_KEPT} at most, however many results the conversation had`, { timeout: 60_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const gone = keys.resultsGone('ses_busy');
    const first = Array.from({ length: 5 }, (_, i) => `task_first${i}`);
    await take(redis, keys, 'ses_busy', first);
    // Later takes score later (ties would be ordered by name).
    const firstAt = await redisNow(redis);
    await waitFor(async () => (await redisNow(redis)) > firstAt + 1);
    for (let from = 0; from < GONE_KEPT; from += 1000) {
      await take(redis, keys, 'ses_busy', Array.from({ length: 1000 }, (_, i) => `task_${from + i}`));
    }
    // Counted whatever its type: the hash it was held GONE_KEPT + 5.
    const held = new Set((await redis.type(gone)) === 'hash' ? await redis.hkeys(gone) : await redis.zrange(gone, '0', '-1'));
    expect(held.size).toBe(GONE_KEPT);
    for (const id of first) expect(held.has(`${id}\n${t}`)).toBe(false);
    expect(held.has(`task_0\n${t}`) && held.has(`task_${GONE_KEPT - 1}\n${t}`)).toBe(true);
  });

  it("a drop by the bound is recorded (its late put refused) and trims the dropped conversation's old members", async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const gone = keys.resultsGone('ses_d');
    await writeWaitingBound(redis, keys, { undeliveredResults: 1, undeliveredChars: 100_000 });
    await publishResult(redis, keys, result('task_d1', 'ses_d'));
    await publishResult(redis, keys, result('task_d2', 'ses_other')); // drops task_d1
    await age(redis, gone, `task_d1\n${t}`, RESULT_TTL_MS + DAY_MS);
    await publishResult(redis, keys, result('task_d3', 'ses_d'));
    await publishResult(redis, keys, result('task_d4', 'ses_other')); // drops task_d3
    expect(await redis.zrange(gone, '0', '-1')).toEqual([`task_d3\n${t}`]);
    await publishResult(redis, keys, result('task_d3', 'ses_d'));
    expect(await redis.hkeys(keys.results('ses_d'))).toEqual([]);
  });

  it('a key of another type there (a hash, as the version before wrote) is replaced by the next take', async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const gone = keys.resultsGone('ses_h');
    await redis.hset(gone, 'task_h0\n1', '1');
    await publishResult(redis, keys, result('task_h', 'ses_h'));
    await take(redis, keys, 'ses_h', ['task_h']);
    expect(await redis.type(gone)).toBe('zset');
    await publishResult(redis, keys, result('task_h', 'ses_h'));
    expect(await redis.hlen(keys.results('ses_h'))).toBe(0);
  });
});
