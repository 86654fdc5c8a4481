/** What an {@link SseDataParser} reports. */
export interface SseDataHandlers {
  /** An event's data (its `data:` lines joined by `\n`). */
  onData(data: string): void;
  /** A comment line (`:` first): a keep-alive, which shows the server is alive. */
  onComment(): void;
  /** A line that is no SSE field (`data`, `event`, `id`, `retry`): what a body that is not SSE shows first. */
  onOddLine(line: string): void;
  /**
   * A line that brings no data and is none of the above: an `event`, `id` or `retry` field, or
   * a blank line that ends no event and follows no other line (a bare line end; the blank
   * line after a comment or a field only ends what was reported). Bytes of a live server all
   * the same: a keep-alive to a reader that watches for silence.
   */
  onNoData(): void;
}

/**
 * The data of server-sent events, parsed in one linear pass over the decoded text: the
 * model stream's hot path (tens of thousands of events a run), where a general parser's
 * per-line work shows. Follows the WHATWG rules for what it reports: lines end at LF, CR or
 * CRLF (a CRLF split across chunks too), `field: value` loses one space, an event is dispatched at a blank line when it had a `data` line, an event the
 * stream ends inside is dropped. `event`, `id` and `retry` are reported as lines without data
 * (`onNoData`), their values dropped: a chat stream needs only the data. (The browser client, which needs ids for resume, uses
 * `eventsource-parser`; a property test holds this parser to it.)
 *
 * @example
 * ```ts
 * const parser = new SseDataParser({ onData: (d) => console.log(JSON.parse(d)), onComment() {}, onOddLine() {}, onNoData() {} });
 * parser.feed('data: {"a":1}\n\ndata: {"a"');
 * parser.feed(':2}\n\n'); // logs { a: 1 }, then { a: 2 }
 * ```
 */
export class SseDataParser {
  #rest = '';
  #data: string | undefined;
  #restEndsInCR = false;
  /** Whether a line other than a blank one came since the last blank line (then the next blank line only ends it). */
  #inBlock = false;

  constructor(private readonly handlers: SseDataHandlers) {}

  /** Parses the next piece of the decoded body. */
  feed(chunk: string): void {
    // (A byte-order mark is the decoder's to drop: TextDecoder does.)
    // A long line arriving in pieces: a piece without a line end only lengthens it, so it is
    // appended without searching the whole line again (which made a long line quadratic).
    // Whether the held text ends in CR is remembered, not read: reading a character of a
    // string built by appends flattens it, a copy of the whole line per piece.
    if (this.#rest !== '' && !this.#restEndsInCR && chunk.indexOf('\n') === -1 && chunk.indexOf('\r') === -1) {
      this.#rest += chunk;
      return;
    }
    const text = this.#rest === '' ? chunk : this.#rest + chunk;
    this.#rest = '';
    let start = 0;
    // Where the next CR is (-1: none left): most streams have none, so one search suffices.
    let cr = text.indexOf('\r', start);
    const length = text.length;
    while (start < length) {
      let end = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      let next: number;
      if (cr !== -1 && (end === -1 || cr < end)) {
        // A CR that ends the text may be the first half of a CRLF: the line waits for the next chunk.
        if (cr + 1 === length) break;
        end = cr;
        next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
      } else if (end === -1) break;
      else next = end + 1;
      this.#line(text, start, end);
      start = next;
    }
    if (start < length) this.#rest = text.slice(start);
    this.#restEndsInCR = this.#rest.endsWith('\r');
  }

  /** The body ended: a last line ended by a lone CR (held back in case a LF followed) is a line. */
  end(): void {
    const text = this.#rest;
    if (!text.endsWith('\r')) return;
    this.#rest = '';
    this.#restEndsInCR = false;
    this.#line(text, 0, text.length - 1);
  }

  /** The text after the last line end: an unfinished line (what a body that is not SSE may be, whole). */
  get pending(): string {
    return this.#rest;
  }

  /** Characters held for an event not yet dispatched: its unfinished line and its `data` lines so far (what a reader bounds). */
  get held(): number {
    return this.#rest.length + (this.#data?.length ?? 0);
  }

  #line(text: string, start: number, end: number): void {
    if (start === end) {
      // A blank line ends the event; one that ends nothing (a bare line end) is reported alone.
      const data = this.#data;
      this.#data = undefined;
      if (data !== undefined) this.handlers.onData(data);
      else if (!this.#inBlock) this.handlers.onNoData();
      this.#inBlock = false;
      return;
    }
    const first = text.charCodeAt(start);
    if (first === 58 /* : */) {
      this.#inBlock = true;
      return this.handlers.onComment();
    }
    // The common case, `data: <json>`, without building a field name.
    if (first === 100 /* d */ && text.startsWith('data:', start)) {
      const from = text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
      const value = from >= end ? '' : text.slice(from, end);
      this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
      return;
    }
    this.#inBlock = true;
    const line = text.slice(start, end);
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field === 'data') {
      // `data` with no colon: an empty value.
      this.#data = this.#data === undefined ? '' : `${this.#data}\n`;
    } else if (field === 'event' || field === 'id' || field === 'retry') {
      this.handlers.onNoData();
    } else {
      this.handlers.onOddLine(line);
    }
  }
}
