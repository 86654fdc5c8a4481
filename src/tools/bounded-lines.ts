/** One line of a text stream, of which only the start is kept. */
export interface BoundedLine {
  /** The line's first characters: at most the `keep` given to {@link boundedLines}. */
  readonly head: string;
  /** The whole line's length in UTF-16 units, line break excluded. */
  readonly length: number;
}

/**
 * Splits a stream of text chunks into lines the way `readline` does (`\n`, `\r\n` or a lone
 * `\r` ends a line; no empty line after a final break), keeping only the first `keep`
 * characters of each. `readline` holds a whole line in memory before anyone can cut it: a
 * one-line file of 320 MB (a minified bundle, a data blob) took 670 MB to show 2,000
 * characters. Here memory stays at one chunk plus `keep`, however long the line.
 *
 * @example
 * ```ts
 * for await (const line of boundedLines(createReadStream(file, { encoding: 'utf8' }), 2001)) {
 *   console.log(line.head, line.length);
 * }
 * ```
 */
export async function* boundedLines(chunks: AsyncIterable<string>, keep: number): AsyncGenerator<BoundedLine> {
  const lineBreak = /[\r\n]/g; // one per call: `lastIndex` is state
  let head = '';
  let length = 0;
  let afterCarriageReturn = false; // a `\r` ended the last chunk: a `\n` starting the next is the same break
  const append = (text: string): void => {
    if (head.length < keep) head += text.slice(0, keep - head.length);
    length += text.length;
  };
  for await (const chunk of chunks) {
    let start = afterCarriageReturn && chunk.startsWith('\n') ? 1 : 0;
    afterCarriageReturn = false;
    lineBreak.lastIndex = start;
    for (let match = lineBreak.exec(chunk); match !== null; match = lineBreak.exec(chunk)) {
      append(chunk.slice(start, match.index));
      yield { head, length };
      head = '';
      length = 0;
      start = match.index + 1;
      if (match[0] === '\r' && chunk[start] === '\n') start += 1;
      else if (match[0] === '\r' && start === chunk.length) afterCarriageReturn = true;
      lineBreak.lastIndex = start;
    }
    append(chunk.slice(start));
  }
  if (length > 0) yield { head, length };
}
