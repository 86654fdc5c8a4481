/** Where a {@link LineSplitter} hands its results. */
export interface LineSink {
  /** A complete line, without its `\n`. Return `false` to stop reading. */
  line(text: string): boolean;
  /** The line being read grew past the limit; `head` is its start. Reading stops. */
  tooLong(head: string): void;
}

/** Pieces shorter than this wait in a small list that is joined every {@link SMALL_PIECES}. */
const SMALL_PIECE_CHARS = 4096;
const SMALL_PIECES = 1024;
/** How much of an overlong line is kept for the error. */
const HEAD_CHARS = 1024;

/**
 * Splits streamed text into lines in time linear in its length, however the text is
 * chunked: only each new chunk is searched for `\n`, and an unfinished line is kept as a
 * list of pieces joined once, when its end arrives (appending to one string and searching
 * it again on every chunk was quadratic). Tiny pieces (a socket fed one byte at a time) are
 * joined in batches, so the list stays short and each character is copied at most twice.
 * An unfinished line longer than `maxLength` stops reading at once, before its end arrives.
 */
export class LineSplitter {
  /** The unfinished line: `parts`, then `small`, in order. */
  private parts: string[] = [];
  private small: string[] = [];
  private length = 0;

  constructor(
    private readonly maxLength: number,
    private readonly sink: LineSink,
  ) {}

  /** Reads a chunk. Returns `false` once reading stopped (see {@link LineSink}). */
  push(chunk: string): boolean {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, newline);
      if (this.length + piece.length > this.maxLength) return this.overflow(piece);
      if (!this.sink.line(this.length === 0 ? piece : this.take(piece))) return false;
      start = newline + 1;
    }
    if (start === chunk.length) return true;
    const rest = start === 0 ? chunk : chunk.slice(start);
    if (this.length + rest.length > this.maxLength) return this.overflow(rest);
    this.append(rest);
    return true;
  }

  /** Reads the last chunk, then the last line if it has no line break. */
  end(chunk: string): boolean {
    if (!this.push(chunk)) return false;
    return this.length === 0 || this.sink.line(this.take(''));
  }

  private append(piece: string): void {
    this.length += piece.length;
    if (piece.length >= SMALL_PIECE_CHARS) {
      this.flushSmall();
      this.parts.push(piece);
      return;
    }
    this.small.push(piece);
    if (this.small.length >= SMALL_PIECES) this.flushSmall();
  }

  private flushSmall(): void {
    if (this.small.length === 0) return;
    this.parts.push(this.small.join(''));
    this.small = [];
  }

  /** The unfinished line followed by `last`, as one string; the buffer is emptied. */
  private take(last: string): string {
    this.flushSmall();
    this.parts.push(last);
    const line = this.parts.join('');
    this.parts = [];
    this.length = 0;
    return line;
  }

  private overflow(piece: string): false {
    let head = '';
    for (const part of [...this.parts, ...this.small, piece]) {
      head += part.slice(0, HEAD_CHARS - head.length);
      if (head.length >= HEAD_CHARS) break;
    }
    this.parts = [];
    this.small = [];
    this.length = 0;
    this.sink.tooLong(head);
    return false;
  }
}
