/**
 * How many marks of each kind a copy remembers ({@link TakenMarks}): a late announcement
 * comes within moments, not after thousands of deliveries.
 */
const MAX_MARKS = 10_000;

/** One kind of mark, oldest first: by key, the conversation known to hold the result (none for a word's). */
type Marks = Map<string, string | undefined>;

/**
 * The results a mirror knows taken or dropped, each bounded apart by what said so, the oldest
 * of a kind going past its bound: this engine's own takes, results whose conversation the copy
 * knows (it held them, or Redis recorded them gone there), and those only a word said were
 * (a message naming results the copy knows nothing of). One bound for all let one forged
 * `taken` naming 10,001 made-up keys push out every other mark, this engine's own takes too,
 * so a result it had delivered was delivered again (its launching engine's late put of it).
 * Now a flood of words only pushes out words. A long-lived engine's own takes, one per result
 * it delivers, are bounded too: the oldest are forgotten, as a late put comes within moments.
 *
 * @internal
 */
export class TakenMarks {
  /** This engine's own takes (a prompt here, or a deleted conversation). */
  readonly #here: Marks = new Map();
  /** Taken or dropped in a conversation the copy knows. */
  readonly #known: Marks = new Map();
  /** Taken or dropped only on a word, the conversation not known. */
  readonly #words: Marks = new Map();

  /** Whether result `key` is marked taken or dropped. */
  has(key: string): boolean {
    return this.#here.has(key) || this.#known.has(key) || this.#words.has(key);
  }

  /** The conversation result `key` is known taken or dropped in, if any. */
  home(key: string): string | undefined {
    return this.#here.get(key) ?? this.#known.get(key);
  }

  /** Whether this engine took result `key` itself. */
  isHere(key: string): boolean {
    return this.#here.has(key);
  }

  /**
   * Marks result `key` taken or dropped, in `sessionId` (undefined when only a word said so;
   * a conversation known already stays), by this engine when `here`. A mark moves up only
   * (word, known, here): a later word never pushes a known result, or an own take, among words.
   */
  mark(key: string, sessionId: string | undefined, here: boolean): void {
    const home = sessionId ?? this.home(key);
    if (here) return this.#put(this.#here, key, home);
    if (this.#here.has(key)) return;
    if (home !== undefined) return this.#put(this.#known, key, home);
    if (!this.#known.has(key)) this.#put(this.#words, key, undefined);
  }

  /** Forgets that result `key` was taken or dropped. */
  delete(key: string): void {
    this.#here.delete(key);
    this.#known.delete(key);
    this.#words.delete(key);
  }

  /** Puts the mark among `marks` alone, as the newest there, and keeps `marks` within its bound. */
  #put(marks: Marks, key: string, home: string | undefined): void {
    this.delete(key);
    marks.set(key, home);
    if (marks.size > MAX_MARKS) marks.delete(marks.keys().next().value!);
  }
}
