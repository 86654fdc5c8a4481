/**
 * The connection a `LogFollower` reads on, the `XREAD` in flight there, and how a reader that
 * read does not cover interrupts it (`CLIENT UNBLOCK`), so it does not wait up to `blockMs`.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { FollowingReader } from './follower-reader.js';
import { compareIds } from './stream-ids.js';

const UNBLOCK_RETRIES = 8;

/** One `XREAD` in flight: the id it reads after, per stream. @internal */
export interface Reading {
  readonly ids: ReadonlyMap<string, string>;
  /** A `CLIENT UNBLOCK` was sent (or is being retried) for it. */
  interrupted: boolean;
}

/** One follower connection and its loop; a new one is made after the last closed. @internal */
export interface Session {
  closed: boolean;
  conn?: Redis;
  clientId?: number;
  reading?: Reading;
  /** Ends the wait before the next attempt to connect, while the follower waits (`follower-connect.ts`). */
  stopPause?: () => void;
}

/**
 * Interrupts the XREAD in flight (on `redis`, the command connection) when it does not read
 * `reader`'s stream from its position.
 *
 * @internal
 */
export function wake(redis: Redis, session: Session, reader: FollowingReader): void {
  const reading = session.reading;
  if (!reading || reading.interrupted || session.clientId === undefined) return; // the next XREAD includes it
  const id = reading.ids.get(reader.key);
  if (id !== undefined && compareIds(id, reader.last) <= 0) return;
  reading.interrupted = true;
  unblock(redis, session, reading, 0);
}

/**
 * `CLIENT UNBLOCK` (the XREAD returns as if timed out). It finds nothing to unblock when
 * the XREAD has not reached Redis yet (sent on another socket): then it is tried again,
 * shortly, while that XREAD is still in flight.
 */
function unblock(redis: Redis, session: Session, reading: Reading, attempt: number): void {
  if (session.closed || session.reading !== reading) return;
  redis.client('UNBLOCK', session.clientId!).then(
    (unblocked) => {
      if (unblocked !== 0 || attempt >= UNBLOCK_RETRIES) return;
      setTimeout(() => unblock(redis, session, reading, attempt + 1), Math.min(2 ** attempt, 50)).unref();
    },
    () => undefined, // the XREAD then ends at its timeout
  );
}
