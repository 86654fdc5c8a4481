import type { Redis } from 'ioredis';
import { Observable } from 'rxjs';
import type { EventLog } from '../runs/event-log.js';
import type { LogEnding, SequencedEvent } from '../runs/run-types.js';
import { warnBadData } from './bad-data-warning.js';
import { logEntryFields } from './log-entry.js';
import { LogFollower } from './log-follower.js';
import { LogPositions } from './log-positions.js';
import { redisFailure } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import { RedisBackendError } from './redis-backend-error.js';
import { StreamReader } from './stream-reader.js';

/** How long the event log keeps things, in milliseconds. */
export interface EventLogTimes {
  /** A finished log is kept this long after its end, then Redis expires it. */
  readonly retentionMs: number;
  /** A log that never ends (its writer died) is expired this long after it started. */
  readonly maxLiveMs: number;
  /** How long the follower blocks in one `XREAD`; a log quiet this long is checked to still exist. */
  readonly blockMs: number;
  /** How long the follower waits for its connection, and for Redis to answer again after it dropped. */
  readonly connectTimeoutMs: number;
}

/**
 * An {@link EventLog} on Redis Streams, one stream per run: `append` is an `XADD` of the
 * seq and the event's JSON, `end` an entry of its own (then the stream expires after the
 * retention), `delete` a `DEL`. A reader replays with `XRANGE` on the shared connection;
 * the readers of logs still being written follow them together on ONE follower connection
 * (a single blocking `XREAD` over every followed stream: `log-follower.ts`), opened
 * for the first of them and closed when the last one leaves.
 *
 * @example
 * ```ts
 * const backend = await redisBackend({ url });
 * backend.eventLog.read(runId, 0).subscribe(({ seq, event }) => console.log(seq, event.type));
 * ```
 */
export class RedisEventLog implements EventLog {
  readonly #readers = new Set<StreamReader>();
  readonly #follower: LogFollower;
  /** Where readers stopped before their log's end: the next reader from there reads only what follows. */
  readonly #positions = new LogPositions();
  #closed = false;

  /** @internal */
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly times: EventLogTimes,
  ) {
    this.#follower = new LogFollower(redis, times);
  }

  /** How long an ended log is kept, in milliseconds. */
  get retentionMs(): number {
    return this.times.retentionMs;
  }

  /**
   * How long a log may live unended, in milliseconds: the deadline its open and its first
   * event set (a worker's first event sets it too: `appendFirstIfOpen`).
   *
   * @internal
   */
  get maxLiveMs(): number {
    return this.times.maxLiveMs;
  }

  /**
   * How long a task's list of its logs (`RedisKeys.taskLogs`) is kept from now, as one of its
   * logs opens or takes its first event: as long as that log can live unended, then be kept
   * ended (`retentionMs`: this backend's, or the launching engine's a worker was given), so a
   * conversation's delete still finds the log.
   *
   * @internal
   */
  taskLogsMs(retentionMs = this.times.retentionMs): number {
    return this.times.maxLiveMs + retentionMs;
  }

  /** Adds the run's next event (an `XADD`; the first also sets the log's deadline). */
  async append(entry: SequencedEvent): Promise<void> {
    const key = this.keys.log(entry.runId);
    const fields = logEntryFields(entry);
    // The first event sets a deadline, so a log whose writer dies does not stay forever; the
    // others are a bare XADD (the hot path: one command per event).
    const write = entry.seq === 1 ? this.redis.multi().xadd(key, '*', ...fields).pexpire(key, this.times.maxLiveMs).exec() : this.redis.xadd(key, '*', ...fields);
    await write.catch(fail(`appending to the event log of ${entry.runId}`));
  }

  /**
   * Creates an empty log (a marker entry readers skip), so a reader can attach before the
   * first event: what a remote child's launcher does before it queues the task, and the
   * run registry before a run starts (its session's lease may take a round trip). A task's log
   * (`taskId`) is listed with the task's others, for its conversation's delete.
   */
  async open(runId: string, taskId?: string): Promise<void> {
    const key = this.keys.log(runId);
    const writes = this.redis.multi().xadd(key, '*', 'open', '1').pexpire(key, this.times.maxLiveMs);
    if (taskId !== undefined) writes.sadd(this.keys.taskLogs(taskId), runId).pexpire(this.keys.taskLogs(taskId), this.taskLogsMs());
    await writes.exec().catch(fail(`creating the event log of ${runId}`));
  }

  /**
   * Marks the log complete (an end entry readers stop at); it expires after the retention
   * (this backend's, or `retentionMs`: a worker ends a task's log with its engine's).
   */
  async end(runId: string, ending: LogEnding, retentionMs = this.times.retentionMs): Promise<void> {
    const key = this.keys.log(runId);
    await this.redis
      .multi()
      .xadd(key, '*', 'end', JSON.stringify(ending))
      .pexpire(key, retentionMs)
      .exec()
      .catch(fail(`ending the event log of ${runId}`));
  }

  /**
   * Whether the log's last entry is its end: its writer ended it, though a reader following
   * it may not have read that end yet.
   *
   * @internal
   */
  async ended(runId: string): Promise<boolean> {
    const [last] = await this.redis.xrevrange(this.keys.log(runId), '+', '-', 'COUNT', 1);
    return last?.[1][0] === 'end';
  }

  /** Forgets the log; its followers end with `UnknownRunError` about `blockMs` (a second) later. */
  async delete(runId: string): Promise<void> {
    await this.redis.del(this.keys.log(runId)).catch(fail(`deleting the event log of ${runId}`));
  }

  /**
   * Whether {@link RedisEventLog.closeReaders} ran (the backend closed): a reader's failure
   * since says so, not that Redis failed.
   *
   * @internal
   */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Ends every reader with a `RedisBackendError` and closes the follower connection (the
   * backend is closing).
   *
   * @internal
   */
  closeReaders(): void {
    this.#closed = true;
    for (const reader of [...this.#readers]) reader.fail(new RedisBackendError('the Redis backend was closed'));
    this.#readers.clear();
    this.#follower.close();
  }

  /**
   * The run's events with `seq > after`, replayed then followed, ending as the log ended.
   * Every entry is checked first: one that is not an event of the run, or is out of its
   * writer's order (see `LogOrder`: a seq repeated, going back or far ahead, a second
   * `RunStart`, anything after the `RunEnd`), is skipped and reported to
   * `onBad`, by default a process warning once per run (see `warnBadData`); a reader with a
   * run of its own to tell (a remote child's launcher) turns it into a `Warning` event.
   */
  read(runId: string, after: number, onBad?: (problem: string) => void): Observable<SequencedEvent> {
    const report = onBad ?? ((problem: string) => warnBadData(`log:${runId}`, `Skipped an entry of the event log of ${runId} in Redis: ${problem}. Later bad entries of this log are skipped silently.`));
    return new Observable<SequencedEvent>((subscriber) => {
      const from = this.#positions.take(runId, after);
      const reader = new StreamReader(this.redis, this.#follower, this.keys.log(runId), runId, after, subscriber, report, from);
      this.#readers.add(reader);
      reader.start();
      return () => {
        this.#readers.delete(reader);
        reader.stop();
        // An SSE stream lets go at a full socket and attaches again after its last seq: from here.
        const stopped = reader.position();
        if (stopped) this.#positions.remember(runId, stopped.seq, stopped.position);
      };
    });
  }
}

function fail(doing: string): (e: unknown) => never {
  return (e) => {
    throw redisFailure(doing, e);
  };
}
