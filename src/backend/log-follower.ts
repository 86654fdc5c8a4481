import type { Redis } from 'ioredis';
import { UnknownRunError } from '../runs/unknown-run-error.js';
import type { FollowerTimes, FollowingReader, StreamEntry } from './follower-reader.js';
import { wake, type Reading, type Session } from './follower-session.js';
import { isWrongType } from './load-hash.js';
import { readEachAlone } from './not-a-stream.js';
import { duplicateOf, redisFailure } from './redis-connection.js';
import { compareIds, oldest } from './stream-ids.js';

export type { FollowerTimes, FollowingReader, StreamEntry } from './follower-reader.js';
export { compareIds } from './stream-ids.js';

interface Followed {
  readonly readers: Set<FollowingReader>;
  /** When entries last came, or it was last found to exist (`Date.now()`). */
  seenAt: number;
}

const COUNT = 1000;

/**
 * Follows every live stream of one event log on ONE connection of its own: a single blocking
 * `XREAD COUNT n BLOCK ms STREAMS k1 k2 … id1 id2 …` over the followed streams, whose entries
 * go to each stream's readers in order. The connection is opened when the first reader
 * follows and closed when the last one leaves (or on `close`).
 *
 * Several readers of one stream may be at different positions: the `XREAD` reads the stream
 * after the smallest of their ids, and each reader skips what it has. A reader whose position
 * the `XREAD` in flight does not cover (a new stream, or a reader behind the others) interrupts
 * it with `CLIENT UNBLOCK` on the command connection, so it does not wait up to `blockMs`; one
 * reader leaving interrupts nothing (the next `XREAD` leaves its stream out).
 *
 * A stream quiet for `blockMs` is checked with `EXISTS`: a deleted log ends its readers with
 * `UnknownRunError`. A stream turned into another type (the `XREAD` fails `WRONGTYPE`) ends
 * its own readers only, with an error saying so, each log then being read alone
 * (`not-a-stream.ts`): a `WRONGTYPE` never ends another log's readers. Any other failed command,
 * or the connection, ends every reader with a `RedisBackendError` (as each reader's own
 * connection failing did), and the connection is closed: the next reader opens a new one.
 *
 * @internal
 */
export class LogFollower {
  readonly #streams = new Map<string, Followed>();
  #session: Session | undefined;

  constructor(
    /** The command connection: duplicated for the follower, and where `CLIENT UNBLOCK` goes. */
    private readonly redis: Redis,
    private readonly times: FollowerTimes,
  ) {}

  /** Follows `reader.key` for `reader` from `reader.last`, until `unfollow`. */
  follow(reader: FollowingReader): void {
    let stream = this.#streams.get(reader.key);
    if (!stream) this.#streams.set(reader.key, (stream = { readers: new Set(), seenAt: Date.now() }));
    stream.readers.add(reader);
    if (!this.#session) {
      const session: Session = { closed: false };
      this.#session = session;
      void this.#loop(session);
      return;
    }
    wake(this.redis, this.#session, reader);
  }

  /** Stops giving `reader` entries; the connection is closed when it was the last reader. */
  unfollow(reader: FollowingReader): void {
    const stream = this.#streams.get(reader.key);
    if (!stream?.readers.delete(reader)) return;
    if (stream.readers.size > 0) return;
    this.#streams.delete(reader.key);
    if (this.#streams.size === 0) this.#end();
  }

  /** Forgets every reader (without telling them) and closes the connection. */
  close(): void {
    this.#streams.clear();
    this.#end();
  }

  #end(): void {
    const session = this.#session;
    this.#session = undefined;
    if (!session) return;
    session.closed = true;
    session.conn?.disconnect();
  }

  async #loop(session: Session): Promise<void> {
    try {
      const conn = await duplicateOf(this.redis, this.times.connectTimeoutMs);
      session.conn = conn;
      if (session.closed) return conn.disconnect();
      // A Redis that refuses CLIENT commands (some hosted ones do): nothing can be interrupted,
      // so a reader the XREAD in flight misses waits for it to time out (`blockMs`).
      session.clientId = await conn.client('ID').catch(() => undefined);
      while (!session.closed) {
        const ids = new Map<string, string>();
        for (const [key, stream] of this.#streams) ids.set(key, oldest(stream.readers));
        if (ids.size === 0) return; // (unfollow has closed the session already)
        const reading: Reading = { ids, interrupted: false };
        session.reading = reading;
        let reply: [key: string, entries: StreamEntry[]][] | null;
        try {
          reply = (await conn.xread('COUNT', COUNT, 'BLOCK', this.times.blockMs, 'STREAMS', ...ids.keys(), ...ids.values())) as typeof reply;
        } catch (e) {
          // One log made something else than a stream fails the whole XREAD: a WRONGTYPE is no
          // Redis failure. Each log is read alone: only the readers of one that is not a stream
          // end (they leave through `unfollow`), the others get their entries.
          if (session.closed || !isWrongType(e)) throw e;
          session.reading = undefined; // nothing blocks now: a new reader waits for the next XREAD
          reply = await readEachAlone(conn, this.#streams, ids, COUNT);
        }
        session.reading = undefined;
        if (session.closed) return;
        if (reply) for (const [key, entries] of reply) this.#dispatch(key, ids.get(key)!, entries);
        // A real timeout checks every stream (as each reader did after its own); otherwise only
        // those quiet for `blockMs` (with busy neighbours, an XREAD never times out).
        await this.#checkQuiet(conn, reply === null && !reading.interrupted);
      }
    } catch (e) {
      if (session.closed) return; // closed on purpose: the pending XREAD failed with it
      // Redis failed: every reader ends, as each one's own connection failing did.
      const readers = [...this.#streams.values()].flatMap((stream) => [...stream.readers]);
      this.#streams.clear();
      this.#end();
      for (const reader of readers) reader.fail(redisFailure(`reading the event log of ${reader.runId}`, e));
    }
  }

  /** Gives `entries` of `key` (read after `after`) to each reader the read covered. */
  #dispatch(key: string, after: string, entries: readonly StreamEntry[]): void {
    const stream = this.#streams.get(key);
    if (!stream || entries.length === 0) return;
    stream.seenAt = Date.now();
    for (const reader of [...stream.readers]) {
      // A reader behind `after` (it came while the XREAD was in flight) would miss what lies
      // between: the next XREAD reads from its position instead.
      if (compareIds(after, reader.last) > 0) continue;
      try {
        reader.deliver(entries);
      } catch (e) {
        reader.fail(redisFailure(`reading the event log of ${reader.runId}`, e));
      }
    }
  }

  /** Ends the readers of the streams that were deleted, checking those quiet for `blockMs` (or all). */
  async #checkQuiet(conn: Redis, all: boolean): Promise<void> {
    const now = Date.now();
    const keys = [...this.#streams].filter(([, stream]) => all || now - stream.seenAt >= this.times.blockMs).map(([key]) => key);
    if (keys.length === 0) return;
    const found = await Promise.all(keys.map((key) => conn.exists(key)));
    keys.forEach((key, i) => {
      const stream = this.#streams.get(key);
      if (!stream) return;
      if (found[i] !== 0) {
        stream.seenAt = Date.now();
        return;
      }
      for (const reader of [...stream.readers]) reader.fail(new UnknownRunError(reader.runId));
    });
  }
}
