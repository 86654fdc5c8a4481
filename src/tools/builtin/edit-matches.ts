/** Where `oldText` occurs in a file's text: how many times, and the index of the first. */
export interface Matches {
  readonly count: number;
  /** The index of the first occurrence; -1 when there is none. */
  readonly first: number;
}

/**
 * Counts the occurrences of `oldText` in `content` (not overlapping, as a replacement sees
 * them) with `indexOf`, holding nothing but the count: `content.split(oldText)` made an
 * array of every piece first, and 134 million pieces aborted V8 with no way to catch it.
 *
 * @example
 * ```ts
 * countMatches('x;\nx;\n', 'x'); // { count: 2, first: 0 }
 * ```
 */
export function countMatches(content: string, oldText: string): Matches {
  const first = content.indexOf(oldText);
  let count = 0;
  for (let at = first; at !== -1; at = content.indexOf(oldText, at + oldText.length)) count += 1;
  return { count, first };
}

/** The UTF-8 size of a text of `bytes` bytes once `count` occurrences of `oldText` became `newText`. */
export function editedBytes(bytes: number, count: number, oldText: string, newText: string): number {
  return bytes + count * (Buffer.byteLength(newText, 'utf8') - Buffer.byteLength(oldText, 'utf8'));
}

/** The 1-based line of `content` that the character at `index` is on. */
export function lineAt(content: string, index: number): number {
  let line = 1;
  for (let at = content.indexOf('\n'); at !== -1 && at < index; at = content.indexOf('\n', at + 1)) line += 1;
  return line;
}
