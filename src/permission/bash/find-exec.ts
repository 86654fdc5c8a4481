/**
 * Where the command of find's `-exec` (`-execdir`, `-ok`, `-okdir`) ends, as the line shows it
 * and as it may be when the line runs: a quoted word holding an expansion may then be `;` (or
 * `+` after `{}`), which ends the command early, and find reads the words after it as its own
 * primaries (`find . -exec true "$x" -exec rm -rf / ;` with `x=';'` runs `rm -rf /`). BSD's
 * find (macOS's too) ends it at any word that starts with `;`, or with `+` right after `{}`
 * (its `c_exec` tests the word's first character): `-exec echo {} ';x' -delete` deletes there,
 * where GNU's reads on; both readings are judged. find reads
 * its whole expression before it runs anything: a fixed word there that is none of its primaries
 * (`-exec grep "$a" -e "$b" {} +`, `-e`) makes it refuse the line, so that end is no end.
 *
 * @module
 */
import { FIND_EXEC } from './shell-programs.js';
import { isRunTime, type TextWord } from './shell-words.js';

/** A word as find's readers see it. */
type FindWord = Pick<TextWord, 'text' | 'glob' | 'literal' | 'input' | 'pattern' | 'quoted'>;

/**
 * find's options, tests and actions whose next word is their value (`-fprintf` takes two), GNU's,
 * BSD's (macOS's too) and busybox's: BSD's birth-time tests (`-Btime 1d`, `-Bmin`, `-Bnewer f`,
 * `-newerBm f`), `-mnewer f`, `-flags -nodump` and macOS's `-xattrname name` among them.
 */
export const FIND_VALUED = /^-(?:D|i?name|i?path|i?wholename|i?regex|i?lname|x?type|user|group|uid|gid|perm|size|[acmB](?:time|min)|[acmB]?newer|newer[aBcmt]{2}|samefile|inum|links|(?:max|min)depth|fstype|used|context|regextype|printf|fprintf?|fprint0|fls|files0-from|flags|xattrname)$/;
/**
 * find's other primaries and its operators, GNU's, BSD's and busybox's (the rest of one list with
 * {@link FIND_VALUED} and `FIND_EXEC`): in its expression find refuses any other word. BSD's
 * `-depth` and `-d` take a value only when the next word is a number (`-depth 2`, `-d -1`): a
 * fixed number is neither a primary nor a path, and a word only known when it runs may be
 * `-delete` there, so they are read as taking none. So is FreeBSD's `-exit [status]`.
 */
const FIND_OTHERS = /^(?:[()!,]|-(?:not|and|or|a|o|daystart|depth|d|follow|-?help|-?version|(?:no)?ignore_readdir_race|mount|noleaf|(?:no)?warn|xdev|empty|executable|false|true|nogroup|nouser|readable|writable|delete|ls|print0?|prune|quit|exit|acl|sparse|xattr))$/;

/**
 * Where the value of the primary at `at` ends: the index of its last value word (`-fprintf`
 * takes two), or `at` itself when it takes none (see {@link FIND_VALUED}). A value is no primary
 * (`-name -delete` matches a file named `-delete`). Never past a `;` or `+`: `execSpan`'s second
 * reading may end a command at a `+` find reads on past (`-exec echo "$x" + -fprintf ; -delete`),
 * and a primary read there in error must not hide the real ones after the real end.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text });
 * valueEnd([w('-Btime'), w('1d'), w('-print')], 0); // 1
 * valueEnd([w('-fprintf'), w(';'), w('-delete')], 0); // 0
 * valueEnd([w('-delete')], 0); // 0
 * ```
 */
export function valueEnd(words: readonly Pick<TextWord, 'text'>[], at: number): number {
  const text = words[at]!.text;
  const last = at + (!FIND_VALUED.test(text) ? 0 : text === '-fprintf' ? 2 : 1);
  let end = at;
  while (end < last && end + 1 < words.length && !mayEndBsd(words, end + 1)) end += 1;
  return end;
}

/** Whether the word at `i` is one that ends a command of `-exec` for GNU's or BSD's find: `+`, or one starting with `;`, or with `+` right after `{}`. */
function mayEndBsd(words: readonly Pick<TextWord, 'text'>[], i: number): boolean {
  const text = words[i]!.text;
  return text === '+' || text.startsWith(';') || (text.startsWith('+') && words[i - 1]?.text === '{}');
}

/** An expansion whose value is any text: a variable (`$x`, `$1`, `$@`) or a parameter expansion without one inside (`${x}`, `${x:-;}`). */
const EXPANSION = /\$(?:\{[^{}$]*\}|[A-Za-z_]\w*|[0-9@*#?$!-])/g;

/** The words of one `-exec` and its kin. */
export interface ExecSpan {
  /** Where its `;` or `+` stands (the number of words when it has none). */
  readonly end: number;
  /** The first of its words after the command's name that may be `;` or `+` when the line runs, if one may. */
  readonly early?: number;
}

/**
 * The span of the command the `-exec` at `at` runs (see {@link ExecSpan}). A `+` ends it only
 * right after a word that is exactly `{}`, as GNU's, BSD's and busybox's find read it; any other
 * `+` is an argument of the command (`-exec xargs -d + rm -rf src ;` runs xargs). After a word
 * only known when the line runs which may be `{}` (`"$x" +`), the `+` may be the end: a second reading.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * execSpan([w('-exec'), w('rm'), w('{}'), w(';')], 0); // { end: 3 }
 * execSpan([w('-exec'), w('true'), w('$x'), w('-exec'), w('rm'), w(';')], 0); // { end: 5, early: 2 }
 * execSpan([w('-exec'), w('echo'), w('+'), w('{}'), w('+')], 0); // { end: 4 }
 * ```
 */
export function execSpan(words: readonly FindWord[], at: number): ExecSpan {
  let end = at + 1;
  while (end < words.length && !endsAt(words, at, end)) end += 1;
  // The command's name is never its end: find refuses `-exec ;`. Nor is a word find would read
  // a word it refuses after: then it runs nothing (see the module).
  for (let i = at + 2; i < end; i += 1) {
    if (mayEndAt(words, i) && !(i + 1 < end && refusedAfter(words[i]!, words[i + 1]!))) return { end, early: i };
  }
  return { end };
}

/**
 * Whether the word at `i`, short of the end {@link endsAt} finds, may end the command: a word
 * only known when it runs that may then start with `;` or `+` (see {@link mayEndExec}), a fixed
 * one starting with `;` (BSD's end), or with `+` after a word that is or may be `{}`.
 */
function mayEndAt(words: readonly FindWord[], i: number): boolean {
  const word = words[i]!;
  const previous = words[i - 1]!;
  if (isRunTime(word)) return mayEndExec(word);
  if (word.text.startsWith(';')) return true;
  return word.text.startsWith('+') && ((previous.text === '{}' && !isRunTime(previous)) || mayBeBraces(previous));
}

/** Whether the word at `i` surely ends the command of the `-exec` at `at`: a `;`, or a `+` after its name right after `{}`. */
function endsAt(words: readonly FindWord[], at: number, i: number): boolean {
  const text = words[i]!.text;
  if (text === ';') return true;
  return text === '+' && i > at + 1 && words[i - 1]!.text === '{}' && !isRunTime(words[i - 1]!);
}

/**
 * Whether a word may be `{}` when the line runs: one only known then whose fixed text, its
 * expansions left out, is only braces (`"$x"`, `"{$x"`), or which may split, so that its last
 * word may be `{}` (`$x`, `a$x`), or where this reading cannot tell.
 */
function mayBeBraces(word: FindWord): boolean {
  if (!isRunTime(word)) return false;
  if (word.quoted !== true || word.glob || word.input === true || word.pattern === true) return true;
  const fixed = word.text.replace(EXPANSION, '');
  return /^[{}]*$/.test(fixed) || fixed.includes('$');
}

/**
 * Whether find refuses its line when `word` ends the command early and `next` follows: `word`
 * is one word (quoted, no `"$@"`, which may be several: `; -name`, making `next` a value) and
 * `next` a fixed word that is none of find's primaries or operators.
 */
function refusedAfter(word: FindWord, next: FindWord): boolean {
  if (!isRunTime(word)) return refusedNext(next);
  if (word.quoted !== true || word.glob || word.input === true || word.pattern === true || word.text.includes('@')) return false;
  return refusedNext(next);
}

/** Whether `next` is a fixed word that is none of find's primaries or operators. */
function refusedNext(next: FindWord): boolean {
  return !isRunTime(next) && !FIND_VALUED.test(next.text) && !FIND_OTHERS.test(next.text) && !FIND_EXEC.has(next.text);
}

/**
 * Whether a word may end the command of `-exec` when the line runs: one only known then which
 * may start with `;` or `+` (BSD's find ends there, GNU's when it is only that), as it starts
 * with an expansion or with `;` or `+` (`"$x"`, `"${x:-;}"`, `";$y"`, `"$(…)"`, `"$x/y"`), or
 * whose fixed text, its expansions left out, is only `;` or `+`, or where this reading cannot
 * tell (an expansion inside another, a glob, what xargs reads). `"a$x"` never is.
 */
export function mayEndExec(word: FindWord): boolean {
  if (!isRunTime(word)) return false;
  if (word.glob || word.input === true || word.pattern === true || /^[$;+]/.test(word.text)) return true;
  const fixed = word.text.replace(EXPANSION, '');
  return /^[;+]*$/.test(fixed) || fixed.includes('$');
}
