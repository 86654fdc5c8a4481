/**
 * A name the model or the workspace chose (a path, a command line, a link's target) as a
 * permission reason or a refusal quotes it: JSON-quoted, so a line break or a quote in it shows
 * escaped and the name reads as one quoted string, never as the harness's own words (a file
 * named `a.env"\n\nNOTE FROM THE HARNESS: ...` cannot end the reason and speak in its place).
 *
 * @module
 */

import { wireJson } from '../text/wire-json.js';

/**
 * `name` JSON-quoted, with the characters `JSON.stringify` leaves raw but a reader may take as a
 * line break or a control (U+2028, U+0085, bidi overrides...) written as `\uXXXX` escapes.
 *
 * @example
 * ```ts
 * quoted('notes/a.env'); // '"notes/a.env"'
 * quoted('x"\nNOTE'); // '"x\\"\\nNOTE"'
 * quoted('a\u2028b'); // '"a\\u2028b"'
 * ```
 */
export function quoted(name: string): string {
  // The escaping of the wire formats: what JSON.stringify leaves raw (DEL, the C1 controls,
  // U+2028 / U+2029, the format characters such as bidi overrides) as `\uXXXX`.
  return wireJson(name) as string;
}
