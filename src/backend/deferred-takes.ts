/**
 * How `SharedResults` sends its takes to Redis: at the end of the turn they are made in, and
 * what it learns of each taken result's place in the bound's order.
 *
 * A prompt takes every result waiting for its conversation and, in the same turn, gives back
 * the older ones it does not show (`backgroundPrefix`: past `shownAtOnce`, 480 by default).
 * Sent at once, that was a take of them all, then a put-back of each unshown one (a script,
 * and a read-back by every other engine): with more waiting than a prompt shows, every prompt
 * paid that again. Held to the end of the turn, a take given back meanwhile is never sent: in
 * Redis it is a take of the shown ones alone, and the others never leave their place.
 *
 * @module
 */

/** How many taken results' places are remembered: a put-back comes within a prompt's save, not after thousands of takes. */
const MAX_PLACES = 10_000;

/** Sends one take of a conversation's results; resolves with the place (score) each held in the bound's order. */
export type TakeSender = (sessionId: string, keys: string[]) => Promise<ReadonlyMap<string, string>>;

/** The takes not sent yet, and the places of those sent. @internal */
export class DeferredTakes {
  /** By conversation, the results taken this turn, not sent yet. */
  readonly #pending = new Map<string, Set<string>>();
  /** By result, the answer of its take: where each result it took stood (none when it failed). */
  readonly #places = new Map<string, Promise<ReadonlyMap<string, string>>>();

  constructor(private readonly send: TakeSender) {}

  /** Takes the conversation's results `keys`: sent to Redis at the end of this turn, with whatever else it takes of it. */
  take(sessionId: string, keys: readonly string[]): void {
    let pending = this.#pending.get(sessionId);
    if (!pending) {
      this.#pending.set(sessionId, (pending = new Set()));
      queueMicrotask(() => void this.#flush(sessionId).catch(() => undefined)); // a result Redis could not forget is at worst delivered twice
    }
    for (const key of keys) pending.add(key);
  }

  /**
   * Gives back the conversation's result `key`: true when its take was not sent (it never left
   * Redis, nor its place there); else its place, once its take answers (undefined when unknown).
   */
  giveBack(sessionId: string, key: string): true | Promise<string | undefined> {
    if (this.#pending.get(sessionId)?.delete(key)) return true;
    const places = this.#places.get(key);
    this.#places.delete(key);
    return places ? places.then((found) => found.get(key)) : Promise.resolve(undefined);
  }

  /** Sends the conversation's takes of this turn now (one that must reach Redis before what follows). */
  flush(sessionId: string): Promise<void> {
    return this.#flush(sessionId);
  }

  async #flush(sessionId: string): Promise<void> {
    const keys = [...(this.#pending.get(sessionId) ?? [])];
    this.#pending.delete(sessionId);
    if (keys.length === 0) return;
    const sent = this.send(sessionId, keys);
    const places = sent.catch((): ReadonlyMap<string, string> => new Map());
    for (const key of keys) {
      this.#places.delete(key); // set anew: the newest, last to go past the bound
      if (this.#places.size >= MAX_PLACES) this.#places.delete(this.#places.keys().next().value!);
      this.#places.set(key, places);
    }
    await sent;
  }
}
