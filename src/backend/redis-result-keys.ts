/**
 * The keys and channel of background results waiting for their conversation's next prompt:
 * each conversation's results, notes of dropped ones and record of those gone, and the one
 * bound on all of them (see waiting-result-put.ts).
 *
 * @module
 */
import { RedisTaskKeys } from './redis-task-keys.js';

/** The names of a backend's background-result keys (with those of {@link RedisTaskKeys}). */
export class RedisResultKeys extends RedisTaskKeys {
  /** A conversation's background results waiting for its next prompt (a hash: `<task>\n<run start>` to JSON). */
  results(sessionId: string): string {
    return `${this.prefix}:results:${sessionId}`;
  }

  /**
   * The background results of a conversation that were taken (delivered) or dropped by the
   * bound (a sorted set: `<task>\n<run start>` scored by Redis's time of its take or drop;
   * each member kept as long as a result waits, and only the newest `GONE_KEPT`, trimmed by
   * each take and drop, see results-gone.ts): what a `taken` or `dropped` message on the
   * results channel is checked against before a mirror forgets a result for good, and what
   * refuses a late put of one. Deleted with its conversation (`RedisSessionStore.delete`).
   */
  resultsGone(sessionId: string): string {
    return `${this.prefix}:results-gone:${sessionId}`;
  }

  /**
   * Every waiting background result, all conversations together, oldest first (a sorted
   * set: `<session>\n<task>\n<run start>` scored by {@link RedisResultKeys.waitingSeq}):
   * where the bound on waiting results is kept, see waiting-result-put.ts.
   */
  get waitingOrder(): string {
    return `${this.prefix}:waiting:order`;
  }

  /** What each waiting result weighs (a hash: the member of {@link RedisResultKeys.waitingOrder} to its UTF-16 units). */
  get waitingSizes(): string {
    return `${this.prefix}:waiting:sizes`;
  }

  /** What all waiting results weigh together (a number). */
  get waitingChars(): string {
    return `${this.prefix}:waiting:chars`;
  }

  /**
   * The bound on waiting results (JSON: `results` and `chars`), written by each engine from
   * its `taskTrackerLimits` as its tracker is made, read by every put (a worker's too).
   */
  get waitingBound(): string {
    return `${this.prefix}:waiting:bound`;
  }

  /** The counter that orders waiting results. */
  get waitingSeq(): string {
    return `${this.prefix}:waiting:seq`;
  }

  /** A conversation's note of results dropped unread (JSON: `count` and the first `taskIds`). */
  droppedResults(sessionId: string): string {
    return `${this.prefix}:dropped:${sessionId}`;
  }

  /** Where background results and their delivery are announced. */
  get resultsChannel(): string {
    return `${this.prefix}:results-events`;
  }
}
