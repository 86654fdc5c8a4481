import { decodeAnsiC } from './ansi-c-quote.js';
import { arithmeticNames } from './set-names.js';
import { arithmeticEnd, atCommandStart, CASE_INSIDE, findAnsiCEnd, findBacktick, findClose } from './shell-spans.js';

/** A command line after the first pass, ready for `shell-quote`. */
export interface ScannedLine {
  /**
   * The line's statements, split at unquoted line breaks, with comments and line
   * continuations removed, `$'...'` decoded, a `#` inside a word escaped, and every command
   * substitution replaced by the literal word `$(…)`.
   */
  readonly statements: readonly string[];
  /** The text inside each `$(...)`, backtick pair, `<(...)` and `>(...)`: command lines of their own. */
  readonly substitutions: readonly string[];
  /** Why the line cannot be judged completely (a here-document, an unclosed quote), when it cannot. */
  readonly opaque?: string;
}

/** What a substitution becomes in its statement: a literal word, so the parser sees one argument. */
export const PLACEHOLDER = '$(…)';
const WORD_BREAK = /[\s;&|()<>]/;
/**
 * How many `((`, `$((` and `[[` a line may be read as arithmetic or a test, nested or not:
 * each costs a pass over the line, and a `$((` nests the scan. Past that they are read as
 * subshells, substitutions and commands, which judges more words, never fewer.
 */
const MAX_LOOKS = 32;

/**
 * The first pass over a bash command line, for what `shell-quote` does not know: it treats
 * a line break as a space, a `#` in the middle of a word as a comment, and has no command
 * substitution. This pass tracks quotes the way bash does and leaves `shell-quote` only
 * statements it reads correctly; what it cannot follow makes the line opaque.
 *
 * @example
 * ```ts
 * scanShellLine('echo $(rm x)\nls # note');
 * // { statements: ["echo '$(…)'", 'ls '], substitutions: ['rm x'] }
 * ```
 */
export function scanShellLine(line: string): ScannedLine {
  return scan(line, { looks: MAX_LOOKS });
}

function scan(line: string, budget: { looks: number }): ScannedLine {
  const statements: string[] = [];
  const substitutions: string[] = [];
  let opaque: string | undefined;
  const flag = (reason: string): void => {
    opaque ??= reason;
  };
  let current = '';
  let i = 0;
  // Inside `[[ ... ]]`: its `&&`, `||`, `(`, `<`, `>` join, group and compare, so they are passed on as words.
  let test = false;
  // In a test, the word after `=~` is a regular expression, whose `|` bash reads as text (`[[ $a =~ ^(x|y)$ ]]`).
  let regex = false;
  // A `case` pattern may be `[[` (`case $x in a | [[ ) rm f;; esac` runs rm): after one, no test is read.
  let cased = false;
  // The `)` ending an arithmetic command `((...))` being read: up to there `<` and `>` compare or shift.
  let arithmetic = -1;
  const atWordStart = (): boolean => current === '' || WORD_BREAK.test(current[current.length - 1]!);

  /**
   * Takes the substitution whose `(` is at `open` (after `$`, `<` or `>`); returns the index
   * after its `)`. `dollar`: it is a `$(`, which may be arithmetic.
   */
  /** What the last `$((…))` assigns, as `${NAME=}` words. */
  let assigned = '';
  const substitution = (open: number, dollar: boolean): number => {
    const close = findClose(line, open + 1);
    if (close < 0) {
      flag(close === CASE_INSIDE ? 'a "case" inside "$(...)", whose patterns end with ")"' : 'an unclosed "$("');
      return line.length;
    }
    const inner = line.slice(open + 1, close);
    // Bash reads `$((` as arithmetic only when the inner `(` closes right before the outer
    // `)`: `$((rm f) )` is a substitution running the subshell `(rm f)`.
    if (dollar && line[open + 1] === '(' && budget.looks-- > 0 && findClose(line, open + 2) === close - 1) {
      // $((...)) is arithmetic: only the substitutions inside it run commands. The names it
      // assigns (`$((PATH=1))`) are kept in the word as default expansions, which `set-names` reads.
      substitutions.push(...scan(inner, budget).substitutions);
      assigned = arithmeticNames(inner).map((name) => `\${${name}=}`).join('');
    } else {
      substitutions.push(inner);
    }
    return close + 1;
  };
  const backtick = (start: number): number => {
    const end = findBacktick(line, start);
    if (end < 0) {
      flag('an unclosed backtick');
      return line.length;
    }
    substitutions.push(line.slice(start, end).replace(/\\([\\`$])/g, '$1'));
    return end + 1;
  };
  const doubleQuoted = (start: number): number => {
    let chunk = '"';
    let j = start;
    while (j < line.length) {
      const c = line[j]!;
      if (c === '\\') {
        if (line[j + 1] !== '\n') chunk += line.slice(j, j + 2);
        j += 2;
      } else if (c === '"') {
        current += `${chunk}"`;
        return j + 1;
      } else if (c === '`') {
        j = backtick(j + 1);
        chunk += PLACEHOLDER;
      } else if (c === '$' && line[j + 1] === '(') {
        j = substitution(j + 1, true);
        chunk += PLACEHOLDER;
      } else {
        chunk += c;
        j += 1;
      }
    }
    flag('an unclosed double quote');
    current += `${chunk}"`;
    return line.length;
  };

  while (i < line.length) {
    const c = line[i]!;
    const next = line[i + 1];
    if (test && atWordStart() && /\s=~\s+$/.test(current) && !/\s/.test(c)) regex = true;
    // The expression ends where a word does, but at a `|`: bash reads a pipe nowhere in a test.
    if (regex && (/\s/.test(c) || c === ';' || c === '&' || c === '<' || c === '>')) regex = false;
    if (test && regex && c === '|') {
      current += "'|'";
      i += 1;
      continue;
    }
    // A test cannot hold these: bash refuses the line, and reading on as usual judges more.
    if (test && (c === ';' || c === '\n' || ((c === '&' || c === '|') && next !== c))) test = false;
    if (c === 'c' && atWordStart() && /^case(?:\s|$)/.test(line.slice(i, i + 5))) cased = true;
    if (c === '\\') {
      if (next !== '\n') current += line.slice(i, i + 2); // a backslash-newline joins the lines
      i += 2;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) {
        flag('an unclosed single quote');
        current += `${line.slice(i)}'`;
        break;
      }
      current += line.slice(i, end + 1);
      i = end + 1;
    } else if (c === '$' && next === "'") {
      const end = findAnsiCEnd(line, i + 2);
      if (end < 0) flag('an unclosed $\' quote');
      current += singleQuoted(decodeAnsiC(line.slice(i + 2, end < 0 ? line.length : end)));
      i = end < 0 ? line.length : end + 1;
    } else if (c === '$' && next === '"') {
      i += 1; // $"..." is a translatable string, quoted like "..."
    } else if (c === '"') {
      i = doubleQuoted(i + 1);
    } else if (c === '`') {
      i = backtick(i + 1);
      current += `'${PLACEHOLDER}'`;
    } else if ((c === '$' || c === '<' || c === '>') && next === '(') {
      assigned = '';
      i = substitution(i + 1, c === '$');
      current += `'${PLACEHOLDER}${assigned}'`;
    } else if (test && (c === '&' || c === '|') && next === c) {
      current += `'${c}${c}'`;
      i += 2;
    } else if (test && (c === '(' || c === ')' || c === '<' || c === '>')) {
      current += `'${c}'`;
      i += 1;
    } else if (test && c === ']' && atWordStart() && /^\](?:[\s;&|()<>]|$)/.test(line.slice(i + 1, i + 3))) {
      test = false;
      current += ']]';
      i += 2;
    } else if (c === '[' && next === '[' && atWordStart() && !cased && /\s/.test(line[i + 2] ?? '') && budget.looks-- > 0 && atCommandStart(current)) {
      // Only the reserved word `[[` starts a test: unquoted, where a command starts (`echo [[ a || rm x ]]` runs rm).
      test = true;
      regex = false;
      current += '[[';
      i += 2;
    } else if (i < arithmetic && (c === '<' || c === '>')) {
      current += `'${c}'`; // `(( x > y ))` compares: no redirection
      i += 1;
    } else if (c === '(' && next === '(' && atWordStart() && !current.endsWith('(') && budget.looks-- > 0 && arithmeticEnd(line, i) >= 0) {
      // Its words are still judged as commands, in doubt (`((rm f))` is arithmetic to bash).
      arithmetic = arithmeticEnd(line, i);
      current += '((';
      i += 2;
    } else if (c === '<' && next === '<') {
      // `<<<` is a here-string (one word of input); `<<` starts a here-document.
      const hereString = line[i + 2] === '<';
      if (!hereString) flag('a here-document ("<<"), whose lines may be commands');
      current += hereString ? '<<<' : '<<';
      i += hereString ? 3 : 2;
    } else if (c === '#' && atWordStart()) {
      const end = line.indexOf('\n', i);
      i = end < 0 ? line.length : end;
    } else if (c === '#') {
      current += '\\#'; // bash reads it as part of the word; shell-quote would start a comment
      i += 1;
    } else if (c === '\n') {
      statements.push(current);
      current = '';
      i += 1;
    } else {
      current += c;
      i += 1;
    }
  }
  statements.push(current);
  const kept = statements.filter((s) => s.trim() !== '');
  return opaque === undefined ? { statements: kept, substitutions } : { statements: kept, substitutions, opaque };
}

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
