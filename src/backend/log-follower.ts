import type { Redis } from 'ioredis';
import { UnknownRunError } from '../runs/unknown-run-error.js';
import type { FollowerTimes, FollowingReader, StreamEntry } from './follower-reader.js';
import { connectionLost, followerConnection, unreachableError } from './follower-connect.js';
import { wake, type Reading, type Session } from './follower-session.js';
import { isWrongType } from './load-hash.js';
import { readEachAlone } from './not-a-stream.js';
import { redisFailure } from './redis-connection.js';
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
 * (`not-a-stream.ts`): a `WRONGTYPE` never ends another log's readers.
 *
 * A dropped connection (`CLIENT KILL`, a restart, a network blip) is made again
 * (`follower-connect.ts`) and read on from each reader's last entry, so readers get every
 * entry once, in order; only Redis unreachable for `connectTimeoutMs` ends every reader, with
 * a `RedisBackendError` saying so. A silent partition (no FIN, no RST) counts as a drop once
 * the connection answered nothing for `blockMs + connectTimeoutMs`: no `XREAD` waits for
 * ever. Any other failed command (a reply of Redis, such as `NOPERM`) ends every reader with
 * a `RedisBackendError` at once, and the connection is closed: the next reader opens a new
 * one.
 *
 * @internal
 */
export class LogFollower {
  readonly #streams = new Map<string, Followed>();
  #session: Session | undefined;

  constructor(
    /** The command connection: duplicated for the follower, and where `CLIENT UNBLOCK` goes. */
    private readonly redis: Redis,
    /** How it waits; its readers bound their replay by `connectTimeoutMs` too (`StreamReader`). */
    readonly times: FollowerTimes,
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
    session.stopPause?.();
    session.conn?.disconnect();
  }

  /**
   * Connects, then reads until the last reader leaves. A dropped connection is made again
   * (`followerConnection`) and the next `XREAD` reads after each reader's own last entry, so
   * nothing is missed or given twice; the readers end only when Redis stays unreachable for
   * `connectTimeoutMs`, or a command fails otherwise.
   */
  async #loop(session: Session): Promise<void> {
    let deadline = Date.now() + this.times.connectTimeoutMs;
    let lost = false;
    for (;;) {
      let conn: Redis | undefined;
      try {
        conn = await followerConnection(this.redis, session, this.times, deadline, lost);
        if (!conn) return; // closed meanwhile
        session.conn = conn;
        await this.#read(session, conn);
        return;
      } catch (e) {
        if (session.closed) return; // closed on purpose: the pending XREAD failed with it
        // Asked before closing it: a reply of Redis (`NOPERM`...) leaves the connection ready.
        lost = conn !== undefined && connectionLost(conn);
        conn?.disconnect();
        session.conn = session.clientId = undefined;
        // Connected, then lost: Redis has `connectTimeoutMs` from now to answer again.
        if (lost) deadline = Date.now() + this.times.connectTimeoutMs;
        else if (conn === undefined) return this.#failAll((reader) => unreachableError(reader.runId, this.times.connectTimeoutMs, e));
        else return this.#failAll((reader) => redisFailure(`reading the event log of ${reader.runId}`, e));
      }
    }
  }

  /** Reads on `conn` until the session closes or has no reader left. */
  async #read(session: Session, conn: Redis): Promise<void> {
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
        session.reading = undefined; // nothing blocks now: a new reader waits for the next XREAD
        // One log made something else than a stream fails the whole XREAD: a WRONGTYPE is no
        // Redis failure. Each log is read alone: only the readers of one that is not a stream
        // end (they leave through `unfollow`), the others get their entries.
        if (session.closed || !isWrongType(e)) throw e;
        reply = await readEachAlone(conn, this.#streams, ids, COUNT);
      }
      session.reading = undefined;
      if (session.closed) return;
      if (reply) for (const [key, entries] of reply) this.#dispatch(key, ids.get(key)!, entries);
      // A real timeout checks every stream (as each reader did after its own); otherwise only
      // those quiet for `blockMs` (with busy neighbours, an XREAD never times out).
      await this.#checkQuiet(conn, reply === null && !reading.interrupted);
    }
  }

  /** Ends every reader with its `error` (Redis failed, or stayed unreachable) and closes the connection. */
  #failAll(error: (reader: FollowingReader) => Error): void {
    const readers = [...this.#streams.values()].flatMap((stream) => [...stream.readers]);
    this.#streams.clear();
    this.#end();
    for (const reader of readers) reader.fail(error(reader));
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
