/**
 * The reads and writes `RedisSessionStore` shares: a write script run over all of a session's
 * keys (its warnings about derived keys replaced), stored items parsed, Redis's failures named.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { shownKey, warnBadData } from './bad-data-warning.js';
import { redisFailure } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/** What the store's writes and delete need of it: its connection, keys, and how long a session (and a deleted task's mark) is kept. @internal */
export interface SessionStoreParts {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly ttlMs: number;
}

/**
 * Runs one of the write scripts of redis-session-scripts.ts over all of the session's keys
 * (then `more`, the keys only that script reads), and warns about a derived key (the index,
 * a summary) it found of another type and replaced.
 *
 * @internal
 */
export async function writeSession(store: SessionStoreParts, script: string, sessionId: string, title: string, items: readonly string[], doing: string, more: readonly string[] = []): Promise<void> {
  const k = store.keys;
  const keys = [k.session(sessionId), k.archive(sessionId), k.archived(sessionId), k.grants(sessionId), k.taskInfo(sessionId), k.sessionSummary(sessionId), k.sessionTasks(sessionId), k.sessionIndex(), k.deletedTask(sessionId), ...more];
  const replaced = (await store.redis.eval(script, keys.length, ...keys, store.ttlMs, Date.now(), sessionId, title, ...items).catch(failed(doing))) as string[];
  for (let i = 0; i + 1 < replaced.length; i += 2) {
    const [key, type] = [replaced[i]!, replaced[i + 1]!];
    warnBadData(key, `Redis key ${shownKey(key)} was a ${shownKey(type)}, which a session store never writes there: replaced (while ${doing} "${shownKey(sessionId)}"), to be rebuilt by the writes from now on.`);
  }
}

/**
 * Stored items as JSON, each that is not JSON as its text (for the run's checks to report
 * and skip): how every read of a list of the store parses it, so one bad item never fails
 * the whole read.
 *
 * @internal
 */
export function parsedItems(items: readonly string[]): unknown[] {
  return items.map((item) => {
    try {
      return JSON.parse(item) as unknown;
    } catch {
      return item;
    }
  });
}

/** Throws what Redis failed as a `RedisBackendError` saying what was being done. @internal */
export function failed(doing: string): (e: unknown) => never {
  return (e) => {
    throw redisFailure(doing, e);
  };
}
