/**
 * Which words of a simple command may carry code into text bash evaluates as arithmetic (see
 * `code-in-data`): a glob's file names, a quoted `$(`, a value assigning a code variable, and
 * a value joined from expansions at run time (`x=PA; y=TH=1; z=$x$y; ((z))` sets PATH, though
 * no part shows it).
 *
 * @module
 */
import { assignsCodeVariable, DECLARERS, holdsCodeText } from './code-in-data.js';
import type { PartSink } from './part-sink.js';
import { joinedNames } from './run-time-names.js';
import { PLACEHOLDER } from './shell-scan.js';
import { basename, isAssignment, plainWords, type Word } from './shell-words.js';

/** Builtins that only print their words: they reach no variable, unless a function of that name is defined on the line. */
const OUTPUT_ONLY: ReadonlySet<string> = new Set(['echo', 'printf']);
/** Builtins whose words bash evaluates as arithmetic, where only a name joined from expansions is built (`$x$y`, not `$j+1`). */
const ARITHMETIC_TAKERS: ReadonlySet<string> = new Set(['[[', 'let']);
/**
 * One expansion as a whole value, as the parser writes it: a copy (`$x`, `${x}`, `"$@"`,
 * `${a[@]}`) or one with a number as default (`${v:-0}`), which adds no text that could join it.
 */
const ONE_EXPANSION = /^\$(?:[A-Za-z_]\w*(?:\[[@*]\]|:-\d*)?|[0-9@*#?$!-])$/;
/** An expansion that evaluates arithmetic or a value (an offset, a subscript, `${!x}`, `${x@P}`), as the parser writes it. */
const EVALUATING_WORD = /\$(?:[A-Za-z_]\w*(?:\[|:(?![-=+?])|@P)|!)/;
/** A default assignment (`${z:=$x$y}`, written `$z:=...` by the parser): its word is a value. */
const DEFAULT_ASSIGNMENT = /\$[A-Za-z_]\w*:?=/;

/**
 * Whether a value is joined at run time: an expansion next to other text or another
 * expansion (`$x$y`, `PA$x`, `"$x"TH`), whose text the line does not show. A substitution's
 * placeholder is judged where it is written (its output carries already).
 */
export function joinsValue(value: string): boolean {
  const text = value.replaceAll(PLACEHOLDER, '');
  return text.includes('$') && !ONE_EXPANSION.test(text);
}

/**
 * Notes in `sink` the words of a simple command that may carry code (`words`: from its first
 * word on, `test`: it is a `[[`). The words of `echo` and `printf` without `-v` only print:
 * they are noted as `passes`, which count only on a line that defines a function (`echo`
 * may be one, and its words its `$1`).
 */
export function noteCarriers(words: readonly Word[], test: boolean, sink: PartSink): void {
  const plain = plainWords(words).map((w) => w.text);
  const base = basename(plain[0] ?? '');
  const printing = OUTPUT_ONLY.has(base) && !plain.slice(1).some((arg) => /^-v/.test(arg));
  for (const word of words) {
    if (word.kind !== 'word') continue;
    // A word that evaluates as it expands (`${s:PATH=1}`, `${a[i]}`, written `$s:PATH=1`, `$a[i]` by the parser) carries wherever it stands.
    const kind = printing && !isAssignment(word, words) && !EVALUATING_WORD.test(word.text) ? 'passes' : 'carries';
    if (word.glob && !test) sink.note(kind, 'file names from a glob');
    else if (holdsCodeText(word.text)) sink.note(kind, `a "$(" or backtick in quotes ("${word.text}")`);
    else if (assignsCodeVariable(word.text)) sink.note(kind, `a value assigning a variable that makes programs run code ("${word.text}")`);
    else if (ARITHMETIC_TAKERS.has(base) ? joinedNames(word.text).length > 0 : joinsValue(word.text)) {
      const value = valueOf(word.text, isAssignment(word, words) || DECLARERS.has(base), ARITHMETIC_TAKERS.has(base) || base === 'set');
      // Any other command's words reach a variable only as a function's `$1`.
      sink.note(value === undefined ? 'passes' : 'carries', `a value joined at run time ("${word.text}")`);
    }
  }
}

/** The value a word gives a variable, when it gives one: an assignment's, a default's, or the whole word (`taken`: of `[[`, `let`, or `set`, whose words become `$1`...). */
function valueOf(word: string, assigns: boolean, taken: boolean): string | undefined {
  if (taken || DEFAULT_ASSIGNMENT.test(word)) return word;
  const value = assigns ? /^[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=(.*)$/s.exec(word)?.[1] : undefined;
  return value !== undefined && joinsValue(value) ? value : undefined;
}

/** Notes the words of a `for` or `select` list (`for z in $x$y`): each is a value of its name. */
export function noteListCarriers(header: readonly string[], sink: PartSink): void {
  const joined = header.slice(2).find(joinsValue);
  if (joined !== undefined) sink.note('carries', `a value joined at run time ("${joined}")`);
}
