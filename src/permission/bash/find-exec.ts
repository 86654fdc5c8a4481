/**
 * Where the command of find's `-exec` (`-execdir`, `-ok`, `-okdir`) ends, as the line shows it
 * and as it may be when the line runs: a quoted word holding an expansion may then be `;` (or
 * `+` after `{}`), which ends the command early, and find reads the words after it as its own
 * primaries (`find . -exec true "$x" -exec rm -rf / ;` with `x=';'` runs `rm -rf /`).
 *
 * @module
 */
import { isRunTime, type TextWord } from './shell-words.js';

/** A word as find's readers see it. */
type FindWord = Pick<TextWord, 'text' | 'glob' | 'literal' | 'input' | 'pattern'>;

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
 * The span of the command the `-exec` at `at` runs (see {@link ExecSpan}).
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * execSpan([w('-exec'), w('rm'), w('{}'), w(';')], 0); // { end: 3 }
 * execSpan([w('-exec'), w('true'), w('$x'), w('-exec'), w('rm'), w(';')], 0); // { end: 5, early: 2 }
 * ```
 */
export function execSpan(words: readonly FindWord[], at: number): ExecSpan {
  let end = at + 1;
  while (end < words.length && words[end]!.text !== ';' && words[end]!.text !== '+') end += 1;
  // The command's name is never its end: find refuses `-exec ;`.
  for (let i = at + 2; i < end; i += 1) if (mayEndExec(words[i]!)) return { end, early: i };
  return { end };
}

/**
 * Whether a word may be `;` or `+` when the line runs: one only known then whose fixed text,
 * its expansions left out, is only `;` or `+` (`"$x"`, `"${x:-;}"`, `";$y"`, `"$(…)"`), or
 * where this reading cannot tell (an expansion inside another, a glob, what xargs reads).
 * `"$x/y"` or `"a$x"` never is.
 */
export function mayEndExec(word: FindWord): boolean {
  if (!isRunTime(word)) return false;
  if (word.glob || word.input === true || word.pattern === true) return true;
  const fixed = word.text.replace(EXPANSION, '');
  return /^[;+]*$/.test(fixed) || fixed.includes('$');
}
