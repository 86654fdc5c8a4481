/**
 * What the first pass over a command line (`scanShellLine`) keeps as it reads: the statement
 * being built, the substitutions and arithmetic it meets, why the line is opaque; and the
 * spans it reads whole (a `$(...)`, a backtick pair, a double-quoted string).
 *
 * @module
 */
import { decodeAnsiC } from './ansi-c-quote.js';
import { CASE_INSIDE, findAnsiCEnd, findBacktick, findClose, TOO_DEEP } from './shell-spans.js';

/** What a substitution becomes in its statement: a literal word, so the parser sees one argument. */
export const PLACEHOLDER = '$(…)';
// Bash's blanks are space, tab and newline only (JavaScript's `\s` holds a no-break space, `\v`...).
const WORD_BREAK = /[ \t\n;&|()<>]/;
/** Why a line with an arithmetic command or `$[` past the budget is opaque. */
export const TOO_MANY = 'more arithmetic and tests ("((", "$[", "[[") than can be checked';

/** How many more `((`, `$((` and `[[` a line may be read as arithmetic or a test (see `scanShellLine`). */
export interface ScanBudget {
  looks: number;
}

/** The nested reading of a `$((…))` or `$[…]` body, as in double quotes: its substitutions and arithmetic. */
export type NestedScan = (text: string) => { readonly substitutions: readonly string[]; readonly arithmetic: readonly string[] };

/** The state of one pass over `line`. */
export class LineReader {
  readonly statements: string[] = [];
  readonly substitutions: string[] = [];
  /** The text of each `$((…))`, `((…))` and `$[…]`: what bash evaluates as arithmetic, which may assign variables. */
  readonly arithmetic: string[] = [];
  /** The statement read so far (see `append`). */
  current = '';
  // Its last character, kept as it grows: reading the end of a long string built by `+=` makes V8 copy it whole each time.
  private tail = '';
  opaque: string | undefined;

  constructor(private readonly line: string, private readonly budget: ScanBudget, private readonly nested: NestedScan) {}

  flag(reason: string): void {
    this.opaque ??= reason;
  }

  atWordStart(): boolean {
    return this.tail === '' || WORD_BREAK.test(this.tail);
  }

  /** Adds `text` to the statement read so far. */
  append(text: string): void {
    this.current += text;
    if (text !== '') this.tail = text[text.length - 1]!;
  }

  /** The last character of the statement read so far (`''` at its start). */
  last(): string {
    return this.tail;
  }

  /**
   * Takes the substitution whose `(` is at `open` (after `$`, `<` or `>`); returns the index
   * after its `)`. `dollar`: it is a `$(`, which may be arithmetic.
   */
  substitution(open: number, dollar: boolean): number {
    const { line } = this;
    const close = findClose(line, open + 1);
    if (close < 0) {
      this.flag(close === CASE_INSIDE ? 'a "case" inside "$(...)", whose patterns end with ")"' : close === TOO_DEEP ? 'substitutions nested too deep to follow' : 'an unclosed "$("');
      return line.length;
    }
    const inner = line.slice(open + 1, close);
    // Bash reads `$((` as arithmetic only when the inner `(` closes right before the outer
    // `)`: `$((rm f) )` is a substitution running the subshell `(rm f)`.
    if (dollar && line[open + 1] === '(' && this.budget.looks-- > 0 && findClose(line, open + 2) === close - 1) {
      // $((...)) is arithmetic: only the substitutions inside it run commands; what it assigns is judged from its text.
      const scanned = this.nested(inner);
      this.substitutions.push(...scanned.substitutions);
      this.noteArithmetic(inner.slice(1, -1));
      this.arithmetic.push(...scanned.arithmetic);
    } else {
      this.substitutions.push(inner);
    }
    return close + 1;
  }

  /** Takes the single-quoted string whose `'` is at `start`, as it is; returns the index after it. */
  singleQuoted(start: number): number {
    const end = this.line.indexOf("'", start + 1);
    if (end < 0) {
      this.flag('an unclosed single quote');
      this.append(`${this.line.slice(start)}'`);
      return this.line.length;
    }
    this.append(this.line.slice(start, end + 1));
    return end + 1;
  }

  /** Takes the `$'...'` string whose body starts at `start`, decoded and single-quoted; returns the index after it. */
  ansiCQuoted(start: number): number {
    const end = findAnsiCEnd(this.line, start);
    if (end < 0) this.flag('an unclosed $\' quote');
    this.append(singleQuoted(decodeAnsiC(this.line.slice(start, end < 0 ? this.line.length : end))));
    return end < 0 ? this.line.length : end + 1;
  }

  /** Takes the backtick pair whose body starts at `start`; returns the index after it. */
  backtick(start: number): number {
    const end = findBacktick(this.line, start);
    if (end < 0) {
      this.flag('an unclosed backtick');
      return this.line.length;
    }
    this.substitutions.push(this.line.slice(start, end).replace(/\\([\\`$])/g, '$1'));
    return end + 1;
  }

  /** Takes the double-quoted string whose body starts at `start`, its substitutions as placeholders; returns the index after it. */
  doubleQuoted(start: number): number {
    const { line } = this;
    let chunk = '"';
    let j = start;
    while (j < line.length) {
      const c = line[j]!;
      if (c === '\\') {
        if (line[j + 1] !== '\n') chunk += line.slice(j, j + 2);
        j += 2;
      } else if (c === '"') {
        this.append(`${chunk}"`);
        return j + 1;
      } else if (c === '`') {
        j = this.backtick(j + 1);
        chunk += PLACEHOLDER;
      } else if (c === '$' && line[j + 1] === '(') {
        j = this.substitution(j + 1, true);
        chunk += PLACEHOLDER;
      } else {
        chunk += c;
        j += 1;
      }
    }
    this.flag('an unclosed double quote');
    this.append(`${chunk}"`);
    return line.length;
  }

  /** Notes the old arithmetic `$[…]` whose body starts at `from`, when it closes (`$[ PATH = 1 ]` assigns PATH). */
  oldArithmetic(from: number): void {
    if (this.budget.looks-- <= 0) return this.flag(TOO_MANY); // read as words, what it assigns would be lost
    let depth = 1;
    for (let i = from; i < this.line.length; i++) {
      if (this.line[i] === '[') depth += 1;
      else if (this.line[i] === ']' && --depth === 0) {
        // Its single quotes hide nothing (`$[ '$(rm y)' ]` runs rm): what it runs is read from its body as well.
        const body = this.line.slice(from, i);
        const scanned = this.nested(body);
        this.substitutions.push(...scanned.substitutions);
        this.noteArithmetic(body);
        this.arithmetic.push(...scanned.arithmetic);
        return;
      }
    }
  }

  /**
   * Notes an arithmetic text as bash evaluates it: a line continuation joins (`PA\\<newline>TH`)
   * and double quotes are dropped (`(( "PATH" = 1 ))` assigns PATH), so names are matched whole.
   */
  noteArithmetic(text: string): void {
    this.arithmetic.push(text.replaceAll('\\\n', '').replaceAll('"', ''));
  }

  /** Ends the statement read so far (at an unquoted line break, or the line's end). */
  endStatement(): void {
    this.statements.push(this.current);
    this.current = '';
    this.tail = '';
  }
}

/** `text` as one single-quoted word. */
function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
