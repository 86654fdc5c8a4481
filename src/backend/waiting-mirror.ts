import type { TaskInfo } from '../delegation/task-tracker.js';
import { resultKey } from '../delegation/undelivered-results.js';

/** How many taken results a mirror remembers: a late announcement comes within moments, not after thousands of deliveries. */
const MAX_TAKEN = 10_000;

/**
 * An engine's copy of the background results waiting in Redis, by conversation and by
 * `resultKey`, and of the results taken (here or elsewhere) or dropped, so a late
 * announcement of one does not bring it back. Kept in memory because a prompt's prefix is
 * taken synchronously; what keeps it equal to Redis is `SharedResults`.
 *
 * @internal
 */
export class WaitingMirror {
  /** By conversation, by `resultKey`. */
  readonly #waiting = new Map<string, Map<string, TaskInfo>>();
  #size = 0;
  readonly #taken = new Set<string>();

  /** How many results it holds. */
  get size(): number {
    return this.#size;
  }

  /** The conversation's results, in the order they came. */
  of(sessionId: string): TaskInfo[] {
    return [...(this.#waiting.get(sessionId)?.values() ?? [])];
  }

  /** Adds a result, unless it was taken (replacing one of the same task and run). */
  add(info: TaskInfo): void {
    const key = resultKey(info);
    if (this.#taken.has(key)) return;
    let mine = this.#waiting.get(info.sessionId);
    if (!mine) this.#waiting.set(info.sessionId, (mine = new Map()));
    if (!mine.has(key)) this.#size++;
    mine.set(key, info);
  }

  /** Removes the conversation's result `key`, if it holds it. */
  remove(sessionId: string, key: string): void {
    const mine = this.#waiting.get(sessionId);
    if (!mine?.delete(key)) return;
    this.#size--;
    if (mine.size === 0) this.#waiting.delete(sessionId);
  }

  /** Remembers that result `key` was taken or dropped (the oldest remembered goes past the bound). */
  markTaken(key: string): void {
    this.#taken.add(key);
    if (this.#taken.size > MAX_TAKEN) this.#taken.delete(this.#taken.values().next().value!);
  }

  /** Forgets that result `key` was taken: it was given back. */
  untake(key: string): void {
    this.#taken.delete(key);
  }

  /** Whether result `key` was taken or dropped. */
  wasTaken(key: string): boolean {
    return this.#taken.has(key);
  }
}
