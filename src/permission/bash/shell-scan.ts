import { LineReader, PLACEHOLDER, type ScanBudget, TOO_MANY } from './line-reader.js';
import { atCommandStart } from './command-start.js';
import { arithmeticEnd } from './shell-spans.js';

export { PLACEHOLDER } from './line-reader.js';

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
  /** The text of each `$((…))`, `((…))` and `$[…]`, nested ones too: arithmetic, which may assign variables (`PATH = 1`). */
  readonly arithmetic: readonly string[];
  /** Why the line cannot be judged completely (a here-document, an unclosed quote), when it cannot. */
  readonly opaque?: string;
}

/**
 * How many `((`, `$((` and `[[` a line may be read as arithmetic or a test, nested or not:
 * each costs a pass over the line, and a `$((` nests the scan. Past that they are read as
 * subshells, substitutions and commands, which judges more words, never fewer; but an
 * arithmetic command or `$[` past it makes the line unreadable, as what it assigns is lost.
 */
const MAX_LOOKS = 32;
/** An assignment's name and `=` right before a `(`: the parentheses hold an array's words (`a=(`, `m[k]+=(`). */
const ARRAY_START = /(?:^|[ \t\n;&|(])[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=$/;
/** Bash's blanks: space, tab and newline only. */
const BLANK = /[ \t\n]/;
/**
 * Whitespace bash does not read as a blank (a no-break space, `\v`, `\f`, `\r`, U+3000, U+2028,
 * U+FEFF...) and control characters: JavaScript's `\s` and the parser read some as blanks, so
 * unquoted they could make a `#` start a comment (`echo x<NBSP># ; rm y` runs rm) or a `[[` a test.
 */
const OTHER_BLANK = /[^\S \t\n]|[\x00-\x08\x0e-\x1f\x7f\x85\u200b-\u200d\u2060]/;

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

/**
 * `quoting`: whether `'` and `$'` quote. Inside `$((…))` and `$[…]` bash reads the text as in
 * double quotes, so a single quote is a plain character there and hides no `$(` or backtick
 * (`: $(( '$(rm y)' ))` runs rm).
 */
function scan(line: string, budget: ScanBudget, quoting = true): ScannedLine {
  const r = new LineReader(line, budget, (text) => scan(text, budget, false));
  let i = 0;
  // Inside `[[ ... ]]`: its `&&`, `||`, `(`, `<`, `>` join, group and compare, so they are passed on as words.
  let test = false;
  // In a test, the word after `=~` is a regular expression, whose `|` bash reads as text (`[[ $a =~ ^(x|y)$ ]]`),
  // and inside its parentheses blanks, `;`, `&`, `<`, `>` and `#` too (`[[ $a =~ (x |y) ]]`): `depth` counts them.
  let regex = false;
  let depth = 0;
  // A `case` pattern may be `[[` (`case $x in a | [[ ) rm f;; esac` runs rm): after one, no test is read.
  let cased = false;
  // The `)` ending an arithmetic command `((...))` being read: up to there `<` and `>` compare or shift.
  let arithmetic = -1;
  // Inside the parentheses of an array's assignment (`a=(`, `a+=(`): a line break there is a blank between its words.
  let array = false;
  while (i < line.length) {
    const c = line[i]!;
    const next = line[i + 1];
    // Only unquoted characters get here (quoted spans are read whole): quoted, such a character is text.
    // Escaped too: the parser after this pass splits words at JavaScript's blanks.
    if (OTHER_BLANK.test(c) || (c === '\\' && OTHER_BLANK.test(next ?? ''))) r.flag(`a whitespace or control character bash does not read as a blank (U+${(c === '\\' ? next! : c).charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) outside quotes`);
    if (test && !BLANK.test(c) && r.atWordStart() && followsMatch(line, i)) [regex, depth] = [true, 0];
    // The expression ends where a word does, but at a `|`: bash reads a pipe nowhere in a test.
    if (regex && depth === 0 && (BLANK.test(c) || c === ';' || c === '&' || c === '<' || c === '>')) regex = false;
    if (test && regex && (c === '|' || c === '(' || (depth > 0 && /[ \t\n;&<>#)]/.test(c)))) {
      depth += c === '(' ? 1 : c === ')' ? -1 : 0;
      r.append(`'${c}'`);
      i += 1;
      continue;
    }
    // A test cannot hold these: bash refuses the line, and reading on as usual judges more.
    if (test && (c === ';' || c === '\n' || ((c === '&' || c === '|') && next !== c))) test = false;
    if (c === 'c' && r.atWordStart() && /^case(?:[ \t\n]|$)/.test(line.slice(i, i + 5))) cased = true;
    if (c === '$' && next === '[') r.oldArithmetic(i + 2); // then read on as words
    if (c === '\\') {
      if (next !== '\n') r.append(line.slice(i, i + 2)); // a backslash-newline joins the lines
      i += 2;
    } else if (c === "'" && !quoting) {
      r.append("\\'");
      i += 1;
    } else if (c === "'") {
      i = r.singleQuoted(i);
    } else if (c === '$' && next === "'" && quoting) {
      i = r.ansiCQuoted(i + 2);
    } else if (c === '$' && next === '"') {
      i += 1; // $"..." is a translatable string, quoted like "..."
    } else if (c === '"') {
      i = r.doubleQuoted(i + 1);
    } else if (c === '`') {
      i = r.backtick(i + 1);
      r.append(`'${PLACEHOLDER}'`);
    } else if ((c === '$' || c === '<' || c === '>') && next === '(') {
      i = r.substitution(i + 1, c === '$');
      r.append(`'${PLACEHOLDER}'`);
    } else if (test && (c === '&' || c === '|') && next === c) {
      r.append(`'${c}${c}'`);
      i += 2;
    } else if (test && (c === '(' || c === ')' || c === '<' || c === '>')) {
      r.append(`'${c}'`);
      i += 1;
    } else if (test && c === ']' && r.atWordStart() && /^\](?:[ \t\n;&|()<>]|$)/.test(line.slice(i + 1, i + 3))) {
      test = false;
      r.append(']]');
      i += 2;
    } else if (c === '[' && next === '[' && r.atWordStart() && !cased && BLANK.test(line[i + 2] ?? '') && budget.looks-- > 0 && atCommandStart(r.current)) {
      // Only the reserved word `[[` starts a test: unquoted, where a command starts (`echo [[ a || rm x ]]` runs rm).
      test = true;
      regex = false;
      r.append('[[');
      i += 2;
    } else if (i < arithmetic && (c === '<' || c === '>')) {
      r.append(`'${c}'`); // `(( x > y ))` compares: no redirection
      i += 1;
    } else if (c === '(' && next === '(' && r.atWordStart() && r.last() !== '(' && budget.looks-- > 0 && arithmeticEnd(line, i) >= 0) {
      // Its words are still judged as commands, in doubt (`((rm f))` is arithmetic to bash); what it assigns is judged from its text.
      arithmetic = arithmeticEnd(line, i);
      r.noteArithmetic(line.slice(i + 2, arithmetic - 1));
      r.append('((');
      i += 2;
    } else if (c === '(' && next === '(' && budget.looks < 0 && r.atWordStart()) {
      // Read as subshells its assignments (`(( PATH = 1 ))`) would be lost.
      r.flag(TOO_MANY);
      r.append(c);
      i += 1;
    } else if (c === '<' && next === '<') {
      // `<<<` is a here-string (one word of input); `<<` starts a here-document.
      const hereString = line[i + 2] === '<';
      if (!hereString) r.flag('a here-document ("<<"), whose lines may be commands');
      r.append(hereString ? '<<<' : '<<');
      i += hereString ? 3 : 2;
    } else if (c === '#' && r.atWordStart()) {
      const end = line.indexOf('\n', i);
      i = end < 0 ? line.length : end;
    } else if (c === '#') {
      r.append('\\#'); // bash reads it as part of the word; shell-quote would start a comment
      i += 1;
    } else if (c === '\n' && array) {
      r.append(' ');
      i += 1;
    } else if (c === '\n') {
      r.endStatement();
      i += 1;
    } else {
      if (c === '(' && !array) array = ARRAY_START.test(r.current);
      else if (c === ')') array = false;
      r.append(c);
      i += 1;
    }
  }
  // Bash refuses the line, but a wrong count of ours would hide commands in the expression.
  if (regex && depth > 0) r.flag('an unclosed "(" in a "[[" regular expression');
  r.endStatement();
  const { statements, substitutions, arithmetic: evaluated, opaque } = r;
  const kept = statements.filter((s) => s.trim() !== '');
  return opaque === undefined ? { statements: kept, substitutions, arithmetic: evaluated } : { statements: kept, substitutions, arithmetic: evaluated, opaque };
}

/**
 * Whether the blanks before `line[i]` follow a blank and `=~`: the word at `i` is a regular
 * expression. Read back over those blanks only, in the line (which is flat, where the statement
 * being built is not): testing the whole text at every blank (`[[ a =~   =~   ...`) would take
 * time growing with the square of the line's length.
 */
function followsMatch(line: string, i: number): boolean {
  let end = i;
  while (end > 0 && BLANK.test(line[end - 1]!)) end -= line[end - 1] === '\n' && line[end - 2] === '\\' ? 2 : 1;
  return end < i && end >= 3 && line.slice(end - 2, end) === '=~' && BLANK.test(line[end - 3]!);
}
