/**
 * An event log whose key holds something else than a stream (anyone with access to the Redis
 * can `DEL` it and `SET` a string there): its readers fail with an error that says so, and
 * only they do.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { shownKey } from './bad-data-warning.js';
import type { FollowingReader } from './follower-reader.js';
import { RedisBackendError } from './redis-backend-error.js';

/** The error of a reader of `key`, which holds a `type` (what `TYPE` answers), not a stream. @internal */
export function notAStream(key: string, type: string): RedisBackendError {
  return new RedisBackendError(
    `The event log ${shownKey(key)} in Redis is not a stream but a ${type}: it was changed by something else than its run's writer (anyone with access to the Redis, or another program sharing the prefix), and cannot be read. Delete the key, or give the backend a prefix of its own.`,
  );
}

/**
 * After a `WRONGTYPE` reply to the `XREAD` of several logs: fails the readers of each key that
 * is not a stream (a missing key is none: a deleted log, which the follower reports itself),
 * so the others go on. False when every key is a stream (changed back since): nothing failed.
 * A failing `TYPE` (Redis is gone) is thrown.
 *
 * @internal
 */
export async function failNonStreams(redis: Redis, streams: ReadonlyMap<string, { readonly readers: ReadonlySet<FollowingReader> }>, keys: readonly string[]): Promise<boolean> {
  const types = await Promise.all(keys.map((key) => redis.type(key)));
  let failed = false;
  keys.forEach((key, i) => {
    const type = types[i]!;
    if (type === 'stream' || type === 'none') return;
    failed = true;
    for (const reader of [...(streams.get(key)?.readers ?? [])]) reader.fail(notAStream(key, type));
  });
  return failed;
}
