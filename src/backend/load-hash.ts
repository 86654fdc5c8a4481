import type { Redis } from 'ioredis';
import { shownKey, warnBadData } from './bad-data-warning.js';

/**
 * The fields of a hash the backend loads when it starts (the shared runs, a conversation's
 * waiting results), or none when the key holds something else than a hash: a wrong-type key
 * (written by anyone with access to the Redis, or another program sharing the prefix) is
 * reported once (`warnBadData`) and passed over, so it cannot stop every engine from starting
 * with `WRONGTYPE`. The warning names the key as `shownKey` does (a planted key may be megabytes
 * long, or hold escapes). Any other failure (Redis is gone) is thrown.
 *
 * @example
 * ```ts
 * const records = await loadHash(redis, keys.runs, 'the runs of other engines are not listed');
 * ```
 */
export async function loadHash(redis: Redis, key: string, consequence: string): Promise<Record<string, string>> {
  try {
    return await redis.hgetall(key);
  } catch (e) {
    if (!isWrongType(e)) throw e;
    const type = await redis.type(key).catch(() => 'another type');
    warnBadData(key, `Redis key ${shownKey(key)} is a ${type}, not a hash: ${consequence}. Delete the key, or give the backend a prefix of its own.`);
    return {};
  }
}

/** Whether Redis refused a command for the type of its key. */
export function isWrongType(e: unknown): boolean {
  return e instanceof Error && e.message.startsWith('WRONGTYPE');
}
