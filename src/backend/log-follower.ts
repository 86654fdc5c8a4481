import type { Redis } from 'ioredis';
import { UnknownRunError } from '../runs/unknown-run-error.js';
import { duplicateOf, redisFailure } from './redis-connection.js';

/** A stream entry as `XRANGE` and `XREAD` return it. */
export type StreamEntry = [id: string, fields: string[]];

/** What the {@link LogFollower} needs of a reader of one stream. */
export interface FollowingReader {
  /** The stream it reads. */
  readonly key: string;
  /** Its run, for error messages. */
  readonly runId: string;
  /** The id of the last entry it has: it is given what comes after. */
  readonly last: string;
  /**
   * Takes the stream's next entries, in order (those up to `last` it skips). Never throws: a
   * malformed entry ends this reader only.
   */
  deliver(entries: readonly StreamEntry[]): void;
  /** Ends it with `error` (which leaves the follower through `unfollow`). */
  fail(error: Error): void;
}

/** How the follower waits, in milliseconds. */
export interface FollowerTimes {
  /** How long one `XREAD` blocks; a stream quiet this long is checked to still exist. */
  readonly blockMs: number;
  /** How long it waits for its connection. */
  readonly connectTimeoutMs: number;
}

interface Followed {
  readonly readers: Set<FollowingReader>;
  /** When entries last came, or it was last found to exist (`Date.now()`). */
  seenAt: number;
}

/** One `XREAD` in flight: the id it reads after, per stream. */
interface Reading {
  readonly ids: ReadonlyMap<string, string>;
  /** A `CLIENT UNBLOCK` was sent (or is being retried) for it. */
  interrupted: boolean;
}

/** One follower connection and its loop; a new one is made after the last closed. */
interface Session {
  closed: boolean;
  conn?: Redis;
  clientId?: number;
  reading?: Reading;
}

const COUNT = 1000;
const UNBLOCK_RETRIES = 8;

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
 * `UnknownRunError`. A failed command or connection ends every reader with a
 * `RedisBackendError` (as each reader's own connection failing did), and the connection is
 * closed: the next reader opens a new one.
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
    this.#wake(this.#session, reader);
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
        const reply = (await conn.xread('COUNT', COUNT, 'BLOCK', this.times.blockMs, 'STREAMS', ...ids.keys(), ...ids.values())) as
          | [key: string, entries: StreamEntry[]][]
          | null;
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

  /** Interrupts the XREAD in flight when it does not read `reader`'s stream from its position. */
  #wake(session: Session, reader: FollowingReader): void {
    const reading = session.reading;
    if (!reading || reading.interrupted || session.clientId === undefined) return; // the next XREAD includes it
    const id = reading.ids.get(reader.key);
    if (id !== undefined && compareIds(id, reader.last) <= 0) return;
    reading.interrupted = true;
    this.#unblock(session, reading, 0);
  }

  /**
   * `CLIENT UNBLOCK` (the XREAD returns as if timed out). It finds nothing to unblock when
   * the XREAD has not reached Redis yet (sent on another socket): then it is tried again,
   * shortly, while that XREAD is still in flight.
   */
  #unblock(session: Session, reading: Reading, attempt: number): void {
    if (session.closed || session.reading !== reading) return;
    this.redis.client('UNBLOCK', session.clientId!).then(
      (unblocked) => {
        if (unblocked !== 0 || attempt >= UNBLOCK_RETRIES) return;
        setTimeout(() => this.#unblock(session, reading, attempt + 1), Math.min(2 ** attempt, 50)).unref();
      },
      () => undefined, // the XREAD then ends at its timeout
    );
  }
}

/** The smallest `last` of the readers (where the stream is read after). */
function oldest(readers: ReadonlySet<FollowingReader>): string {
  let min: string | undefined;
  for (const reader of readers) if (min === undefined || compareIds(reader.last, min) < 0) min = reader.last;
  return min ?? '0-0';
}

/** Orders stream ids (`<ms>-<seq>`, decimal without leading zeros). */
export function compareIds(a: string, b: string): number {
  const dashA = a.indexOf('-');
  const dashB = b.indexOf('-');
  return compareDecimal(a.slice(0, dashA), b.slice(0, dashB)) || compareDecimal(a.slice(dashA + 1), b.slice(dashB + 1));
}

function compareDecimal(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
