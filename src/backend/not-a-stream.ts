/**
 * An event log whose key holds something else than a stream (anyone with access to the Redis
 * can `DEL` it and `SET` a string there): its readers fail with an error that says so, and
 * only they do.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { shownKey } from './bad-data-warning.js';
import type { FollowingReader, StreamEntry } from './follower-reader.js';
import { isWrongType } from './load-hash.js';
import { RedisBackendError } from './redis-backend-error.js';

/**
 * The error of a reader of `key`, whose read met something else than a stream: `type` is what
 * `TYPE` answered, undefined when it could not be asked. One message; only what the key
 * holds is worded after the type: a `TYPE` asked after the failed read (a round trip late) may
 * find the key a stream again, or gone, and the read met neither.
 *
 * @internal
 */
export function notAStream(key: string, type?: string): RedisBackendError {
  return new RedisBackendError(
    `The event log ${shownKey(key)} in Redis ${heldWords(type)}: it was changed by something else than its run's writer (anyone with access to the Redis, or another program sharing the prefix), and cannot be read. Delete the key, or give the backend a prefix of its own.`,
  );
}

/** What the key held, in words, by the `TYPE` answered (undefined: not known). */
function heldWords(type: string | undefined): string {
  if (type === undefined || type === '') return 'is not a stream';
  if (type === 'stream') return 'was not a stream when read (it is a stream again now)';
  if (type === 'none') return 'was not a stream when read (the key is gone now)';
  return `is not a stream but ${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;
}

/**
 * After a `WRONGTYPE` reply to the `XREAD` of several logs (`ids`: the id each is read after):
 * reads each log alone, without blocking, with its `TYPE` in the same `MULTI`, so the type is
 * the one its read met. A `TYPE` sent after the failed `XREAD` is a round trip late: a key
 * flipped back to a stream (or deleted) meanwhile named no culprit, and the `WRONGTYPE` failed
 * every log's readers. Here the readers of a key whose read fails `WRONGTYPE` fail with
 * {@link notAStream}, and only they; the entries of the others are returned, as an `XREAD`
 * returns them. A key that is a stream again is read as one (its entries are checked as any
 * are): which key the shared `XREAD` tripped on cannot be told afterwards. Any other failure
 * (Redis is gone) is thrown.
 *
 * @internal
 */
export async function readEachAlone(
  redis: Redis,
  streams: ReadonlyMap<string, { readonly readers: ReadonlySet<FollowingReader> }>,
  ids: ReadonlyMap<string, string>,
  count: number,
): Promise<[key: string, entries: StreamEntry[]][]> {
  const multi = redis.multi();
  for (const [key, id] of ids) multi.type(key).xread('COUNT', count, 'STREAMS', key, id);
  const replies = (await multi.exec()) ?? [];
  const read: [string, StreamEntry[]][] = [];
  [...ids.keys()].forEach((key, i) => {
    const [typeError, type] = replies[2 * i] ?? [new Error('no reply')];
    const [readError, reply] = replies[2 * i + 1] ?? [new Error('no reply')];
    if (typeError) throw typeError;
    if (!readError) {
      for (const [k, entries] of (reply as [string, StreamEntry[]][] | null) ?? []) read.push([k, entries]);
      return;
    }
    if (!isWrongType(readError)) throw readError;
    for (const reader of [...(streams.get(key)?.readers ?? [])]) reader.fail(notAStream(key, String(type)));
  });
  return read;
}
