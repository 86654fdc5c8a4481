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

// What makes a line of file text read as something else after grep's `name:line: `: a line
// break of another convention than `\n` (the only one the line was split at: `\r`, NEL,
// U+2028 / U+2029), another control (ESC starts a terminal sequence), a format character (a
// bidi override shows the match backwards). Not a tab: code is full of them, and they mislead nobody.
const LINE_MISREAD = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;

/**
 * A line of file text as grep shows it after `name:line: `: as it is when it reads
 * unambiguously, else JSON-quoted whole as `quoted` quotes it (every line break, control and
 * format character escaped, `\r`, `\u2028`, `\u202e`..., and so every backslash and `"`).
 * A line is quoted when it holds one of those characters (a tab is no such character: code is
 * full of them), or when it starts and ends with `"` (it would read as a quoted line). So a
 * shown line that starts and ends with `"` is always a JSON string, and `JSON.parse` of it
 * gives the line; any other shown line is the line itself, its backslashes its own: a file's
 * two characters `\` `r` never show as a carriage return does. Plain lines, nearly all of
 * them, show as they always did.
 *
 * @example
 * ```ts
 * shownLine('const a = 1;\tok'); // 'const a = 1;\tok' (the tab kept)
 * shownLine('x = "\\r";'); // 'x = "\\r";' (the file's own backslash)
 * shownLine('x\ry\u202Ez'); // '"x\\ry\\u202ez"'
 * ```
 */
export function shownLine(text: string): string {
  const readsQuoted = text.startsWith('"') && text.endsWith('"');
  return readsQuoted || LINE_MISREAD.test(text) ? quoted(text) : text;
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
