import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

/**
 * How many taken or dropped results a conversation's record (`RedisKeys.resultsGone`) keeps
 * at most: the newest. A late put comes seconds after the first (a worker's and its engine's
 * copies of one result), so the record only has to outlast that; bounded, a conversation
 * active for months does not grow it past this.
 *
 * @internal
 */
export const GONE_KEPT = 10_000;

/**
 * A Lua function for the put and take scripts (after `REDIS_NOW`): `recordGone(key, now,
 * keepMs, fields)` records the results `fields` (their `resultKey`s) of one conversation as
 * taken or dropped, in its sorted set scored by Redis's time, then trims the set: members
 * older than `keepMs` (each its own age, however often later takes renew the key) and all
 * but the newest {@link GONE_KEPT}. Each take or drop costs O(log n) plus what it trims. A
 * key of another type (a hash, as the version before wrote) is replaced: kept, it would
 * refuse every record and, renewed by each take, never expire.
 *
 * @internal
 */
export const RECORD_GONE = `
local function recordGone(key, now, keepMs, fields)
  local found = redis.call('TYPE', key).ok
  if found ~= 'zset' and found ~= 'none' then redis.call('DEL', key) end
  for _, field in ipairs(fields) do redis.call('ZADD', key, now, field) end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('(%d', now - keepMs))
  redis.call('ZREMRANGEBYRANK', key, 0, -${GONE_KEPT + 1})
  redis.call('PEXPIRE', key, keepMs)
end`;

/**
 * Whether Redis records the conversation's result `field` (a `resultKey`) taken or dropped;
 * a key of another type records none. Rejects when Redis fails.
 *
 * @internal
 */
export async function isRecordedGone(redis: Redis, keys: RedisKeys, sessionId: string, field: string): Promise<boolean> {
  try {
    return (await redis.zscore(keys.resultsGone(sessionId), field)) !== null;
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('WRONGTYPE')) return false;
    throw err;
  }
}
