import type { Redis } from 'ioredis';
import type { Subscriber } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import { errorOfIdentity } from '../errors/error-identity.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { UnknownRunError } from '../runs/unknown-run-error.js';
import { unreachableError } from './follower-connect.js';
import { isWrongType } from './load-hash.js';
import { readLogEntry } from './log-entry.js';
import { LogOrder } from './log-order.js';
import { compareIds, type FollowingReader, type LogFollower, type StreamEntry } from './log-follower.js';
import { FIRST_COUNT, MAX_COUNT, type LogPosition } from './log-positions.js';
import { notAStream } from './not-a-stream.js';
import { RedisBackendError } from './redis-backend-error.js';
import { redisFailure } from './redis-connection.js';

/** Told of each entry of a log that is skipped: not what the log's writer writes, or out of seq order. */
export type BadEntryHandler = (problem: string) => void;

/**
 * One reader of one stream: replays with `XRANGE` on the command connection, then (a log
 * still being written) follows through the event log's shared {@link LogFollower} until the
 * end entry.
 *
 * Every entry is checked before it goes out (`readLogEntry`, `LogOrder`), since anyone with
 * access to the Redis can write into a stream: an entry that is not an event, an end or the
 * open marker, and an event out of the writer's order (a seq repeated, going back or jumping
 * far ahead, a second `RunStart`, anything after the `RunEnd`), are skipped and reported to
 * `onBad`. What goes out is always an `AgentEvent`, its seqs strictly increasing, at most one
 * `RunStart` and nothing after a `RunEnd`. A log ending complete whose last entries were
 * skipped for jumping too far (`LogOrder.lostEnd`) fails its reader with a `RedisBackendError`
 * saying the run's end may be lost, rather than completing as if the log were whole.
 *
 * A reader given a {@link LogPosition} (where an earlier reader stopped, `from`) goes on from
 * there with that reader's `LogOrder`: what it reads after is checked exactly as if it had
 * read the log from its start, without reading it again. `XRANGE` asks for few entries first
 * (an SSE stream takes about 16 KiB, then waits for its socket), twice as many each time a
 * batch comes full, up to 1000: a large entry is not pulled from Redis a thousand at a time
 * for a consumer that takes one.
 *
 * @internal
 */
export class StreamReader implements FollowingReader {
  #closed = false;
  #following = false;
  /** Where the log's events are: the next must fit (see `LogOrder`). */
  readonly #order: LogOrder;
  /** The id of the last entry handled. */
  last: string;
  /** How many entries the next `XRANGE` asks for. */
  #count: number;
  /** How many entries this reader handled: what its consumer took, for the next reader's `count`. */
  #handled = 0;
  /** The seq of the last event delivered (`after` before the first). */
  #delivered: number;
  /** Whether it told its consumer the log's end (or a failure): then it has no position. */
  #ended = false;
  /** Bounds the replay's read in flight (`#answered`); cleared when the reader stops. */
  #silence: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly follower: LogFollower,
    readonly key: string,
    readonly runId: string,
    private readonly after: number,
    private readonly out: Subscriber<SequencedEvent>,
    private readonly onBad: BadEntryHandler,
    from?: LogPosition,
  ) {
    this.#order = from?.order ?? new LogOrder();
    this.last = from?.last ?? '0-0';
    this.#count = from?.count ?? FIRST_COUNT;
    this.#delivered = after;
  }

  start(): void {
    this.#replay().catch(async (e: unknown) => this.fail(await this.#failure(e)));
  }

  /** What the replay's failure `e` is to the consumer. */
  async #failure(e: unknown): Promise<Error> {
    if (UnknownRunError.isInstance(e)) return e;
    if (!isWrongType(e)) return redisFailure(`reading the event log of ${this.runId}`, e);
    // Asked after the failed read: the key may be a stream again, or gone (`notAStream` words each).
    return notAStream(this.key, await this.redis.type(this.key).catch(() => undefined));
  }

  /** Ends the reader with `error`. */
  fail(error: Error): void {
    if (!this.#closed) {
      this.#ended = true;
      this.out.error(error);
    }
    this.stop();
  }

  /**
   * Where it stopped (once stopped, before the log's end): every event up to `seq` delivered.
   * Undefined when it ended, or read nothing.
   */
  position(): { seq: number; position: LogPosition } | undefined {
    if (this.#ended || this.last === '0-0') return undefined;
    const count = Math.min(MAX_COUNT, Math.max(FIRST_COUNT, 2 * this.#handled));
    return { seq: this.#delivered, position: { last: this.last, order: this.#order, count } };
  }

  stop(): void {
    this.#closed = true;
    clearTimeout(this.#silence);
    if (!this.#following) return;
    this.#following = false;
    this.follower.unfollow(this);
  }

  /** Followed entries (the follower's `XREAD`); an error of its consumer ends this reader only. */
  deliver(entries: readonly StreamEntry[]): void {
    try {
      this.#deliver(entries);
    } catch (e) {
      this.fail(redisFailure(`reading the event log of ${this.runId}`, e));
    }
  }

  async #replay(): Promise<void> {
    // On the command connection: a finished run never needs a follower.
    for (let first = true; ; first = false) {
      const count = this.#count;
      const entries = (await this.#answered(this.redis.xrange(this.key, this.last === '0-0' ? '-' : `(${this.last}`, '+', 'COUNT', count))) as StreamEntry[];
      if (this.#closed) return;
      // Nothing after a position: the log may be gone since (deleted, or expired), as from its start.
      if (first && entries.length === 0 && (this.last === '0-0' || (await this.#answered(this.redis.exists(this.key))) === 0)) throw new UnknownRunError(this.runId);
      if (this.#deliver(entries)) return;
      if (entries.length < count) break;
      this.#count = Math.min(MAX_COUNT, 2 * count);
    }
    this.#following = true;
    this.follower.follow(this);
  }

  /**
   * `reply`, or the reader's failure once Redis answered nothing for `connectTimeoutMs`. A
   * command in flight at a drop Redis reports is sent again on the next connection (or fails)
   * by ioredis itself; across a silent partition (no FIN, no RST) the command connection waits
   * for ever, and the reader with it.
   */
  async #answered<T>(reply: Promise<T>): Promise<T> {
    const ms = this.follower.times.connectTimeoutMs;
    const silence = new Promise<never>((_, reject) => {
      this.#silence = setTimeout(() => reject(unreachableError(this.runId, ms, new Error(`no answer within ${ms} ms`))), ms);
    });
    try {
      return await Promise.race([reply, silence]);
    } finally {
      clearTimeout(this.#silence);
    }
  }

  /** Delivers the entries after `last`, in order; true once the reader ended. */
  #deliver(entries: readonly StreamEntry[]): boolean {
    for (const [id, fields] of entries) {
      if (this.#closed) return true;
      if (compareIds(id, this.last) <= 0) continue; // another reader of the stream was behind
      this.last = id;
      this.#handled += 1;
      const entry = readLogEntry(fields);
      if (entry.kind === 'open') continue;
      if (entry.kind === 'bad') {
        this.#skip(`${entry.problem} (entry ${id})`);
        continue;
      }
      if (entry.kind === 'event') {
        const problem = this.#order.take(entry.seq, entry.event);
        if (problem !== undefined) this.#skip(`${problem} (entry ${id})`);
        else if (entry.seq > this.after) {
          // before `next`: a consumer may stop the reader in it, and its position is here
          this.#delivered = entry.seq;
          this.out.next({ runId: this.runId, seq: entry.seq, event: entry.event });
        }
        continue;
      }
      const { ending } = entry;
      this.#ended = true; // before telling: a consumer may stop the reader in it
      if (ending.kind === 'cancelled') this.out.error(new AbortError(new Error(ending.reason)));
      else if (ending.kind === 'failed') this.out.error(errorOfIdentity(ending));
      else this.#complete();
      this.stop();
      return true;
    }
    return this.#closed;
  }

  /** Ends the reader at its log's `complete` end: an error if the order says the run's end may be lost. */
  #complete(): void {
    const lost = this.#order.lostEnd();
    if (lost === undefined) this.out.complete();
    else this.out.error(new RedisBackendError(`The event log of ${this.runId} in Redis ended, but ${lost}. The run's outcome is unknown here.`));
  }

  #skip(problem: string): void {
    // The handler is ours (a Warning, a log line), but it must not end the reader if it throws.
    try {
      this.onBad(problem);
    } catch {
      // ignored: the entry is skipped either way
    }
  }
}
