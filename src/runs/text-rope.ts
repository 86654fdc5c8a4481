/** Pieces joined into one string at a time: a retained string per this many deltas. */
const PIECES_PER_CHUNK = 64;

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
  #pending: string[] = [];
  #pendingStart = 0;
  #length = 0;

  /** Adds `text` at the end; returns its offset in the whole text. */
  append(text: string): number {
    const at = this.#length;
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

  #flush(): void {
    if (this.#pending.length === 0) return;
    this.#chunks.push(this.#pending.join(''));
    this.#starts.push(this.#pendingStart);
    this.#pendingStart = this.#length;
    this.#pending = []; // a new array: the old one, with its young pieces, is garbage now
  }
}
