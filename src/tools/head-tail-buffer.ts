import { headOf, tailOf } from '../text/whole-chars.js';

/**
 * Keeps the start and the end of a long text stream and counts what was dropped in the
 * middle, so a noisy command's first lines (what started) and last lines (how it ended)
 * both survive an output cap.
 *
 * @example
 * ```ts
 * const buffer = new HeadTailBuffer(5, 5);
 * buffer.append('0123456789abcdef');
 * buffer.toString(); // '01234\n... [6 characters omitted] ...\nbcdef'
 * ```
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private omittedCount = 0;
  private headFull = false;

  constructor(
    private readonly headLimit: number,
    private readonly tailLimit: number,
  ) {}

  /** How many characters were dropped between head and tail. */
  get omitted(): number {
    return this.omittedCount;
  }

  /** Adds text to the end of the stream. */
  append(text: string): void {
    let rest = text;
    if (!this.headFull) {
      const kept = headOf(rest, this.headLimit - this.head.length);
      this.head += kept;
      rest = rest.slice(kept.length);
    }
    if (rest === '') return;
    // Full, though maybe a unit short of its limit (no half character): what follows is the tail's.
    this.headFull = true;
    this.tail += rest;
    if (this.tail.length > this.tailLimit) {
      const kept = tailOf(this.tail, this.tailLimit);
      this.omittedCount += this.tail.length - kept.length;
      this.tail = kept;
    }
  }

  /** The kept text, with a marker where the middle was dropped. */
  toString(): string {
    if (this.omittedCount === 0) return this.head + this.tail;
    return `${this.head}\n... [${this.omittedCount} characters omitted] ...\n${this.tail}`;
  }
}
