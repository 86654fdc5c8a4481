import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { quoted } from '../permission/quoted.js';

// What makes a name read as something else in a tool's answer, where each line is one name
// (`glob`, `list`) or `name:line: text` (`grep`): a line break of any convention or another
// control (a file "a\nsrc/secret.ts" read as two lines, one naming no file); a format
// character such as a bidi override (a name shown backwards); a leading `"` (a plain name
// taken for a quoted one); space at either end (lost by a reader that trims); `:` and a digit
// (a file "x.ts:12: password=hunter2" read as a match in x.ts); a final `@` (a file "a@"
// read as `list`'s mark of a link "a").
const NEEDS_QUOTES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]|^"|^\s|\s$|:\d|@$/u;

/**
 * A workspace path as the search tools print it: as it is when it reads unambiguously, else
 * JSON-quoted as permission refusals quote names (`quoted`: control and format characters
 * escaped). So a printed name that starts with `"` is always a JSON string, and `JSON.parse`
 * of it gives the real name; any other printed name is the real name itself. Plain names,
 * nearly all of them, print as they always did.
 *
 * @example
 * ```ts
 * shownName('src/a.ts'); // 'src/a.ts'
 * shownName('a\nsrc/secret.ts'); // '"a\\nsrc/secret.ts"'
 * shownName('x.ts:12: password=hunter2'); // '"x.ts:12: password=hunter2"'
 * ```
 */
export function shownName(path: string): string {
  return NEEDS_QUOTES.test(path) ? quoted(path) : path;
}

/**
 * Whether the entry `name`, read in the absolute `folder`, can be opened by that name. Node
 * reads a name whose bytes are not UTF-8 with U+FFFD in their place: no tool can give that
 * name back, so showing it would show a file that is not there. Only a name holding U+FFFD
 * is looked up again (a real U+FFFD in a name is found, and kept).
 *
 * @example
 * ```ts
 * await nameable('/repo/src', 'a.ts'); // true, without looking
 * ```
 */
export async function nameable(folder: string, name: string): Promise<boolean> {
  if (!name.includes('\uFFFD')) return true;
  return lstat(join(folder, name)).then(
    () => true,
    () => false,
  );
}
