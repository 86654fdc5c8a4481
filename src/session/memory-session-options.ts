/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
   * How many sessions (conversations and task sessions together) to keep, default 10,000;
   * the least recently used beyond that are dropped, so a long-lived engine stays bounded. A
   * session a run holds (`claim`) is not dropped until the run gives it up: while runs wait
   * (a long tool call), the store may hold up to as many more sessions as runs are going on.
   * So for `maxTaskSessions` and `maxBytes`.
   */
  readonly maxSessions?: number;
  /**
   * How many delegated tasks' sessions to keep for resume (default 1,000); the least recently
   * used beyond that are dropped with their messages.
   */
  readonly maxTaskSessions?: number;
  /**
   * About how many bytes the sessions' messages (and their archives) may hold together,
   * default 256 MiB (a string counted at two bytes a character); the least recently used
   * beyond that are dropped, as beyond `maxSessions`. The session being written is kept
   * even when it alone is larger.
   */
  readonly maxBytes?: number;
}

/** The bounds of a `MemorySessionStore`, every default filled in. */
export type MemorySessionBounds = Required<MemorySessionStoreOptions>;

/**
 * The bounds `options` asks for, checked when the store is made (a typo such as `-1` or
 * `1.5` fails there, not as a store that silently keeps nothing).
 *
 * @throws RangeError for a bound that is not an integer >= 0.
 */
export function memorySessionBounds(options: MemorySessionStoreOptions): MemorySessionBounds {
  return {
    maxSessions: bound(options.maxSessions, 10_000, 'maxSessions'),
    maxTaskSessions: bound(options.maxTaskSessions, 1000, 'maxTaskSessions'),
    maxBytes: bound(options.maxBytes, 256 * 1024 * 1024, 'maxBytes'),
  };
}

function bound(value: number | undefined, fallback: number, name: string): number {
  const max = value ?? fallback;
  if (!Number.isInteger(max) || max < 0) throw new RangeError(`MemorySessionStore: ${name} must be an integer >= 0, got ${max}`);
  return max;
}
