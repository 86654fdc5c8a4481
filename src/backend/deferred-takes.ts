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
 * A put-back of results whose take was sent waits for that take's answer (their places), so a
 * take of the conversation made meanwhile (its next prompt, its deletion) waits in turn until
 * the put-back is sent ({@link DeferredTakes.holdFor}): one connection sends in the order
 * given, so Redis gets take, put-back, take. Sent at once, the later take reached Redis
 * first, and the put-back wrote back a result it had taken (delivered twice, or left waiting
 * for a deleted conversation).
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
  /** By conversation, its put-backs waiting for their places: settled once every one is sent. */
  readonly #held = new Map<string, Promise<void>>();

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

  /**
   * Holds the conversation's takes not sent yet until `sent` settles (a put-back, waiting for
   * its take's answer, has been sent): they go to Redis after it, in the order they were made.
   */
  holdFor(sessionId: string, sent: Promise<unknown>): void {
    const before = this.#held.get(sessionId);
    const held: Promise<void> = Promise.all([before, sent]).then(
      () => undefined,
      () => undefined,
    );
    this.#held.set(sessionId, held);
    void held.then(() => this.#held.get(sessionId) === held && this.#held.delete(sessionId));
  }

  /** Sends the conversation's takes of this turn now, or once its put-backs are sent (one that must reach Redis before what follows). */
  flush(sessionId: string): Promise<void> {
    return this.#flush(sessionId);
  }

  async #flush(sessionId: string): Promise<void> {
    // What is taken meanwhile joins this take; what is given back meanwhile leaves it.
    for (let held = this.#held.get(sessionId); held; held = this.#held.get(sessionId)) await held;
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
