import type { TaskInfo } from '../delegation/task-tracker.js';
import { resultKey } from '../delegation/undelivered-results.js';
import { TakenMarks } from './taken-marks.js';

/**
 * An engine's copy of the background results waiting in Redis, by conversation and by
 * `resultKey`, and of the results taken (here or elsewhere) or dropped, so a late
 * announcement of one does not bring it back. Kept in memory because a prompt's prefix is
 * taken synchronously; what keeps it equal to Redis is `SharedResults`.
 *
 * It knows which conversation each result is under, waiting or taken (a result's key names
 * its task, and a task is one conversation's): a word naming it under another conversation
 * is forged, and changes nothing. Heeded, its check read that other conversation, found
 * nothing there and made the copy forget the result was taken (delivered again) or, coming
 * after a word naming its own conversation, lost it while it still waited in Redis.
 *
 * It knows too which results this engine took itself: only its own put-back (made here at
 * once, {@link WaitingMirror.putBack}) gives one back. A word read back from the channel
 * does not: its own put-back's message came after its next prompt took the result again, and a
 * check of a word came while its take, held behind a put-back, had not reached Redis yet.
 * Un-taken, such a result was delivered again (the engine's own late put of it, or its read-back).
 * What it remembers taken is bounded by kind ({@link TakenMarks}): words never push out the rest.
 *
 * @internal
 */
export class WaitingMirror {
  /** By conversation, by `resultKey`. */
  readonly #waiting = new Map<string, Map<string, TaskInfo>>();
  #size = 0;
  /** By `resultKey`, the conversation each waiting result is under. */
  readonly #homes = new Map<string, string>();
  /** The results taken or dropped (this engine's own takes among them), and the conversation known to hold them. */
  readonly #taken = new TakenMarks();
  /** Results forgotten on another's word, while Redis is asked whether it still holds them: by key, by conversation, the latest word's number. */
  readonly #checking = new Map<string, Map<string, number>>();
  #words = 0;

  /** How many results it holds. */
  get size(): number {
    return this.#size;
  }

  /** The conversation's results, in the order they came. */
  of(sessionId: string): TaskInfo[] {
    return [...(this.#waiting.get(sessionId)?.values() ?? [])];
  }

  /** Every result it holds (checked against Redis after a drop of the channel). */
  all(): TaskInfo[] {
    return [...this.#waiting.values()].flatMap((mine) => [...mine.values()]);
  }

  /** Adds a result, unless it was taken (replacing one of the same task and run). */
  add(info: TaskInfo): void {
    const key = resultKey(info);
    if (this.#taken.has(key)) return;
    let mine = this.#waiting.get(info.sessionId);
    if (!mine) this.#waiting.set(info.sessionId, (mine = new Map()));
    if (!mine.has(key)) this.#size++;
    mine.set(key, info);
    this.#homes.set(key, info.sessionId);
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
      this.#homes.set(key, sessionId);
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
    this.#homes.delete(key);
    this.#size--;
    if (mine.size === 0) this.#waiting.delete(sessionId);
  }

  /**
   * Remembers that result `key`, of conversation `sessionId` (undefined when only a word said
   * so), was taken or dropped, by this engine when `here` (the oldest of its kind goes past the bound: {@link TakenMarks}).
   */
  markTaken(key: string, sessionId: string | undefined, here = false): void {
    this.#taken.mark(key, sessionId, here);
  }

  /**
   * Forgets, on a word (a put-back's message, or Redis holding the result after all), that
   * result `key` was taken, in `sessionId`: a word naming another conversation than the one
   * the copy knows it under changes nothing, nor one on a result this engine took itself.
   */
  untake(key: string, sessionId: string): void {
    const home = this.#taken.home(key);
    if (this.#taken.isHere(key) || (home !== undefined && home !== sessionId)) return;
    this.#taken.delete(key);
  }

  /**
   * Forgets the conversation's result `key` at once, on another mirror's (or Redis's) word
   * that it was taken or dropped: removed and marked taken, so a late announcement of its put
   * does not bring it back. Returns the word's number for {@link WaitingMirror.settle}, or
   * undefined when the copy knows the result under another conversation (the word is forged).
   */
  forget(sessionId: string, key: string): number | undefined {
    const home = this.#homes.get(key) ?? this.#taken.home(key);
    if (home !== undefined && home !== sessionId) return undefined;
    this.remove(sessionId, key);
    this.markTaken(key, home);
    let words = this.#checking.get(key);
    if (!words) this.#checking.set(key, (words = new Map()));
    words.set(sessionId, ++this.#words);
    return this.#words;
  }

  /**
   * Whether word `word` of {@link WaitingMirror.forget} is the latest on the conversation's
   * result `key`, so what Redis answered about it decides (a later word's own answer decides otherwise).
   */
  settle(sessionId: string, key: string, word: number): boolean {
    const words = this.#checking.get(key);
    if (words?.get(sessionId) !== word) return false;
    words.delete(sessionId);
    if (words.size === 0) this.#checking.delete(key);
    return true;
  }

  /** The number of the latest word of {@link WaitingMirror.forget} on the conversation's result `key` Redis has not answered yet, if any. */
  wordOn(sessionId: string, key: string): number | undefined {
    return this.#checking.get(key)?.get(sessionId);
  }

  /** Whether result `key` was forgotten on a word (naming any conversation) Redis has not answered yet. */
  isChecking(key: string): boolean {
    return this.#checking.has(key);
  }

  /** Whether result `key` was taken or dropped. */
  wasTaken(key: string): boolean {
    return this.#taken.has(key);
  }
}
