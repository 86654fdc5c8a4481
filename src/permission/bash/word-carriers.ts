/**
 * Which words of a simple command may carry code into text bash evaluates as arithmetic (see
 * `code-in-data`): a glob's file names, a quoted `$(`, a value assigning a code variable, and
 * a value joined from expansions at run time (`x=PA; y=TH=1; z=$x$y; ((z))` sets PATH, though
 * no part shows it).
 *
 * @module
 */
import { assignsCodeVariable, holdsCodeText } from './code-in-data.js';
import type { PartSink } from './part-sink.js';
import { joinedNames } from './run-time-names.js';
import { PLACEHOLDER } from './shell-scan.js';
import { basename, plainWords, type Word } from './shell-words.js';
import { quoted } from '../quoted.js';

/** Builtins whose words bash evaluates as arithmetic, where only a name joined from expansions is built (`$x$y`, not `$j+1`). */
const ARITHMETIC_TAKERS: ReadonlySet<string> = new Set(['[[', 'let']);
/**
 * One expansion as a whole value, as the parser writes it: a copy (`$x`, `${x}`, `"$@"`,
 * `${a[@]}`, `${a[i]}` with no expansion in its subscript, `${!x}`, a part `${s:1}`) or one with a number as default (`${v:-0}`), which adds no text that could join it.
 */
const ONE_EXPANSION = /^\$(?:!?[A-Za-z_]\w*(?:\[[^\]$`]*\]|:(?:-\d*|(?![-=+?])[^$`]*))?|[0-9@*#?$!-])$/;
/**
 * Whether a value is joined at run time: an expansion next to other text or another
 * expansion (`$x$y`, `PA$x`, `"$x"TH`), whose text the line does not show. A substitution's
 * placeholder is judged where it is written (its output carries already); an old `$[…]` gives a number.
 */
export function joinsValue(value: string): boolean {
  const text = value.replaceAll(PLACEHOLDER, '').replace(/\$\[[^\]]*\]/g, '');
  return text.includes('$') && !ONE_EXPANSION.test(text);
}

/**
 * Notes in `sink` the words of a simple command that may carry code (`words`: from its first
 * word on, `test`: it is a `[[`). Any command's words do, `echo`'s too: bash keeps each last
 * word in `$_` (`echo 'a[$(rm y)]'; ((_))` runs rm), and any command may be a function
 * defined where no syntax shows it, with its words as `$1`.
 */
export function noteCarriers(words: readonly Word[], test: boolean, sink: PartSink): void {
  const base = basename(plainWords(words)[0]?.text ?? '');
  for (const word of words) {
    if (word.kind !== 'word') continue;
    if (word.glob && !test) sink.note('carries', 'file names from a glob');
    else if (holdsCodeText(word.text)) sink.note('carries', `a "$(" or backtick in quotes (${quoted(word.text)})`);
    else if (assignsCodeVariable(word.text)) sink.note('carries', `a value assigning a variable that makes programs run code (${quoted(word.text)})`);
    else if (word.literal !== true && (ARITHMETIC_TAKERS.has(base) ? joinedNames(word.text).length > 0 : joinsValue(valueOf(word.text)))) {
      sink.note('carries', `a value joined at run time (${quoted(word.text)})`);
    }
  }
}

/** The value a word may give a variable: an assignment's (`z=${v:-0}`: `${v:-0}`), or the whole word (`$k=1`, a function's `$1` or `$_`). */
function valueOf(word: string): string {
  return /^[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=(.*)$/s.exec(word)?.[1] ?? word;
}

/** Notes the words of a `for` or `select` list (`for z in $x$y`): each is a value of its name. */
export function noteListCarriers(header: readonly string[], sink: PartSink): void {
  const joined = header.slice(2).find(joinsValue);
  if (joined !== undefined) sink.note('carries', `a value joined at run time (${quoted(joined)})`);
}
