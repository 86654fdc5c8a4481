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
  /** Results forgotten on another's word, while Redis is asked whether it still holds them: by key, the latest word's number. */
  readonly #checking = new Map<string, number>();
  #words = 0;

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

  /**
   * Puts results given back (taken for a prompt, `results` oldest first) in front of the
   * conversation's others, in their order, no longer taken: added one by one, each would go
   * behind the ones after it.
   */
  putBack(sessionId: string, results: readonly TaskInfo[]): void {
    const mine = this.#waiting.get(sessionId);
    const back = new Map<string, TaskInfo>();
    for (const info of results) {
      const key = resultKey(info);
      this.#taken.delete(key);
      back.set(key, info);
    }
    for (const [key, info] of mine ?? []) if (!back.has(key)) back.set(key, info);
    if (back.size === 0) return;
    this.#size += back.size - (mine?.size ?? 0);
    this.#waiting.set(sessionId, back);
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

  /**
   * Forgets the conversation's result `key` at once, on another mirror's (or Redis's) word
   * that it was taken or dropped: removed and marked taken, so a late announcement of its put
   * does not bring it back. Returns the word's number for {@link WaitingMirror.settle}.
   */
  forget(sessionId: string, key: string): number {
    this.remove(sessionId, key);
    this.markTaken(key);
    this.#checking.set(key, ++this.#words);
    return this.#words;
  }

  /**
   * Whether word `word` of {@link WaitingMirror.forget} is the latest on result `key`, so what
   * Redis answered about it decides (a later word's own answer decides otherwise).
   */
  settle(key: string, word: number): boolean {
    if (this.#checking.get(key) !== word) return false;
    this.#checking.delete(key);
    return true;
  }

  /** The number of the latest word of {@link WaitingMirror.forget} on result `key` Redis has not answered yet, if any. */
  wordOn(key: string): number | undefined {
    return this.#checking.get(key);
  }

  /** Whether result `key` was forgotten on a word Redis has not answered yet. */
  isChecking(key: string): boolean {
    return this.#checking.has(key);
  }

  /** Whether result `key` was taken or dropped. */
  wasTaken(key: string): boolean {
    return this.#taken.has(key);
  }
}
