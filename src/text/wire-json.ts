/**
 * JSON for one line of a wire format (an NDJSON line, an SSE `data:` field) that stays one
 * line, and shows nothing raw, for every reader downstream.
 *
 * @module
 */

// `JSON.stringify` escapes C0 controls (so `\n`, `\r`, NUL, ESC never appear raw) and lone
// surrogates, but leaves the rest as they are: DEL and the C1 controls (U+0085 NEL is a line
// break to Python's `splitlines()`, U+009B is CSI to a terminal that honours 8-bit controls),
// U+2028 / U+2029 (line breaks to JavaScript's `m` regexes and to `splitlines()`), and the
// format characters (bidi overrides, zero-width characters, the BOM) that turn a line of
// `--json` around on a terminal. Model text is hostile and reaches all of these readers.
const UNSAFE = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/** `\uXXXX` for every UTF-16 unit of `char` (an astral format character is a pair). */
function escapeUnits(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * `JSON.stringify(value)` with DEL, the C1 controls, U+2028 / U+2029 and the format
 * characters written as `\uXXXX` escapes. `JSON.parse` gives back exactly the same value; the
 * text holds no line break of any convention and no character a terminal would act on or
 * hide. Returns `undefined` where `JSON.stringify` does, and throws what it throws.
 *
 * @param space - Indentation, as `JSON.stringify`'s (for a document a human reads, such as
 * `agents --json`; the line breaks are then only the indentation's, never a value's).
 * @example
 * ```ts
 * wireJson({ text: 'a\u2028b\u202Ec' }); // '{"text":"a\\u2028b\\u202ec"}'
 * ```
 */
export function wireJson(value: unknown, space?: number): string | undefined {
  const json = JSON.stringify(value, null, space) as string | undefined;
  // `search` first: most events hold none of them, and then no copy is made
  if (json === undefined || json.search(UNSAFE) === -1) return json;
  // The slices between the matches, appended: `replace` with a callback and a `u` regex took
  // 7 ms on a megabyte with a single match (a pasted file, a long tool result), this 1 ms.
  let out = '';
  let from = 0;
  UNSAFE.lastIndex = 0;
  for (let match = UNSAFE.exec(json); match !== null; match = UNSAFE.exec(json)) {
    out += json.slice(from, match.index) + escapeUnits(match[0]);
    from = UNSAFE.lastIndex;
  }
  return out + json.slice(from);
}
