import type { Redis } from 'ioredis';
import type { Subscriber } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import { errorOfIdentity } from '../errors/error-identity.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { UnknownRunError } from '../runs/unknown-run-error.js';
import { isWrongType } from './load-hash.js';
import { readLogEntry } from './log-entry.js';
import { LogOrder } from './log-order.js';
import { compareIds, type FollowingReader, type LogFollower, type StreamEntry } from './log-follower.js';
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
 * @internal
 */
export class StreamReader implements FollowingReader {
  #closed = false;
  #following = false;
  /** Where the log's events are: the next must fit (see `LogOrder`). */
  readonly #order = new LogOrder();
  /** The id of the last entry handled. */
  last = '0-0';

  constructor(
    private readonly redis: Redis,
    private readonly follower: LogFollower,
    readonly key: string,
    readonly runId: string,
    private readonly after: number,
    private readonly out: Subscriber<SequencedEvent>,
    private readonly onBad: BadEntryHandler,
  ) {}

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
    if (!this.#closed) this.out.error(error);
    this.stop();
  }

  stop(): void {
    this.#closed = true;
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
    for (;;) {
      const entries = (await this.redis.xrange(this.key, this.last === '0-0' ? '-' : `(${this.last}`, '+', 'COUNT', 1000)) as StreamEntry[];
      if (this.#closed) return;
      if (this.last === '0-0' && entries.length === 0) throw new UnknownRunError(this.runId);
      if (this.#deliver(entries)) return;
      if (entries.length < 1000) break;
    }
    this.#following = true;
    this.follower.follow(this);
  }

  /** Delivers the entries after `last`, in order; true once the reader ended. */
  #deliver(entries: readonly StreamEntry[]): boolean {
    for (const [id, fields] of entries) {
      if (this.#closed) return true;
      if (compareIds(id, this.last) <= 0) continue; // another reader of the stream was behind
      this.last = id;
      const entry = readLogEntry(fields);
      if (entry.kind === 'open') continue;
      if (entry.kind === 'bad') {
        this.#skip(`${entry.problem} (entry ${id})`);
        continue;
      }
      if (entry.kind === 'event') {
        const problem = this.#order.take(entry.seq, entry.event);
        if (problem !== undefined) this.#skip(`${problem} (entry ${id})`);
        else if (entry.seq > this.after) this.out.next({ runId: this.runId, seq: entry.seq, event: entry.event });
        continue;
      }
      const { ending } = entry;
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
