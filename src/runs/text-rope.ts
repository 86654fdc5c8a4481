/** Pieces joined into one string at a time: a retained string per this many deltas. */
const PIECES_PER_CHUNK = 64;
/** The pending pieces of every rope with none: a compacted rope of a finished stream holds no array of its own. */
const NO_PIECES: string[] = [];

/**
 * One delta stream's text, kept as a few long strings rather than a string per delta: the
 * pieces wait in a short array and are joined every {@link PIECES_PER_CHUNK}. A log that keeps
 * a run's every delta then holds one object per 64 of them, and none of its long-lived arrays
 * points at a young string (which the garbage collector would track and copy at each
 * scavenge). `append` says where a piece starts; `slice` gives it back.
 *
 * @example
 * ```ts
 * const rope = new TextRope();
 * const at = rope.append('Hello');
 * rope.slice(at, 5); // 'Hello'
 * ```
 *
 * @internal
 */
export class TextRope {
  readonly #chunks: string[] = [];
  /** Where each chunk starts in the whole text. */
  readonly #starts: number[] = [];
  #pending: string[] = NO_PIECES;
  #pendingStart = 0;
  #length = 0;

  /** How many strings it holds: its joined chunks and the pieces waiting (what `compact` brings down to one). */
  get strings(): number {
    return this.#chunks.length + this.#pending.length;
  }

  /** Adds `text` at the end; returns its offset in the whole text. */
  append(text: string): number {
    const at = this.#length;
    if (this.#pending === NO_PIECES) this.#pending = [];
    this.#pending.push(text);
    this.#length += text.length;
    if (this.#pending.length >= PIECES_PER_CHUNK) this.#flush();
    return at;
  }

  /** The `length` characters from `offset`: a piece as it was appended. */
  slice(offset: number, length: number): string {
    if (length === 0) return '';
    if (offset >= this.#pendingStart) this.#flush();
    // The last chunk starting at or before `offset` holds the whole piece (chunks join whole pieces).
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    const from = offset - this.#starts[low]!;
    return this.#chunks[low]!.slice(from, from + length);
  }

  /**
   * Joins the pieces still waiting into one string now: for a stream that has ended (its
   * message is complete) they would otherwise stay a string and an array slot each for as
   * long as the log is kept. With `whole`, a string the caller keeps anyway (the step's
   * `ReasonEnd.text`): when the rope's text equals it, the rope keeps that one instead of a
   * copy of its own. The offsets `append` gave stay valid.
   */
  compact(whole?: string): void {
    this.#flush();
    if (whole === undefined || whole.length !== this.#length || this.#chunks.length === 0) return;
    const text = this.#chunks.length === 1 ? this.#chunks[0]! : this.#chunks.join('');
    if (text !== whole) return;
    this.#chunks.length = 1;
    this.#starts.length = 1;
    this.#chunks[0] = whole;
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    this.#chunks.push(this.#pending.join(''));
    this.#starts.push(this.#pendingStart);
    this.#pendingStart = this.#length;
    this.#pending = NO_PIECES; // the old array, with its young pieces, is garbage now; `append` starts a new one
  }
}
