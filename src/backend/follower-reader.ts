/**
 * What a `LogFollower` serves: a reader of one stream, and how long the follower waits.
 *
 * @module
 */

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
  /** How long it waits for its connection, and for Redis to answer again after it dropped. */
  readonly connectTimeoutMs: number;
}
