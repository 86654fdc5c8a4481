/**
 * Reading awk program text: where its strings and regular expressions end, and the commands
 * it runs through pipes (`print | "cmd"`, `"cmd" | getline`) and `system("cmd")`.
 *
 * @module
 */

/**
 * The commands a program runs through pipes and `system()`, pushed onto `out` as the text of
 * their string; true when one is an expression instead (known only when it runs). A `|` in a
 * regular expression (`/a|b/`) or `||` runs nothing. A string is the whole command only where
 * nothing is joined to it: `print | "sort -o out/" $1` runs `sort -o out/` followed by a field,
 * and gawk reads `x "cmd" | getline` as `(x "cmd") | getline`; both are known only when they run.
 */
export function awkCommands(program: string, out: string[]): boolean {
  let unknown = false;
  let operand = false;
  // Open parentheses, true for a condition's (`if (`, `while (`, `for (`); `condition` when the last one closed was.
  const opens: boolean[] = [];
  let condition = false;
  // The string at `at` (after blanks) when it is the whole expression: nothing joined after it.
  const literal = (at: number): string | undefined => {
    while (program[at] === ' ' || program[at] === '\t') at += 1;
    if (program[at] !== '"') return undefined;
    const end = stringEnd(program, at);
    return standsAlone(program, end + 1) ? program.slice(at + 1, end) : undefined;
  };
  for (let i = 0; i < program.length; i += 1) {
    const c = program[i]!;
    if (c === ' ' || c === '\t') continue;
    if (c === '"') {
      const end = stringEnd(program, i);
      const piped = /^\s*\|&?\s*getline\b/.exec(program.slice(end + 1));
      // An operand right before the string joins it (`x "cmd" | getline`): the command is longer.
      const joined = operand && !condition && !['else', 'do', 'return'].includes(wordBefore(program, i));
      if (piped !== null && joined) unknown = true;
      else if (piped !== null) out.push(program.slice(i + 1, end));
      i = end + (piped?.[0].length ?? 0);
    } else if (c === '\\') i += 1;
    else if (c === '/' && !operand) i = regexEnd(program, i);
    else if (c === '|' && program[i + 1] === '|') i += 1;
    else if (c === '|') {
      const at = i + (program[i + 1] === '&' ? 2 : 1);
      const text = literal(at);
      if (text === undefined) unknown = true;
      else out.push(text);
    } else if (c === '(') opens.push(['if', 'while', 'for'].includes(wordBefore(program, i)));
    condition = c === ')' && opens.pop() === true;
    operand = /[\w$)\]".]/.test(c);
  }
  for (const call of program.matchAll(/\bsystem\s*\(/g)) {
    const at = call.index + call[0].length;
    const text = literal(at);
    const closes = text !== undefined && /^\s*\)/.test(program.slice(stringEnd(program, program.indexOf('"', at)) + 1));
    if (closes) out.push(text);
    else unknown = true;
  }
  return unknown;
}

/**
 * Whether the expression a string closed just before `at` ends there: blanks, then the end of a
 * statement (`;`, `}`, a newline, a comment), of a call (`)`), another pipe or a redirection.
 * Anything else (`$1`, `"more"`, `x`) is joined to the string and known only when it runs.
 */
function standsAlone(program: string, at: number): boolean {
  return /^[ \t]*(?:[;}\n)|>#]|$)/.test(program.slice(at));
}

/** The word that ends (before blanks) just before `at`, else `''`. */
function wordBefore(program: string, at: number): string {
  let end = at;
  while (end > 0 && /[ \t]/.test(program[end - 1]!)) end -= 1;
  let start = end;
  while (start > 0 && /\w/.test(program[start - 1]!)) start -= 1;
  return program.slice(start, end);
}

/** Where a regular expression that opens at `start` closes (a `/` outside a bracket expression, or the line's end). */
export function regexEnd(program: string, start: number): number {
  let bracket = false;
  let i = start + 1;
  for (; i < program.length && program[i] !== '\n'; i += 1) {
    const c = program[i]!;
    if (c === '\\') i += 1;
    else if (bracket) bracket = c !== ']';
    else if (c === '[') {
      bracket = true;
      if (program[i + 1] === ']') i += 1; // `[]...]`: the first `]` is a member
    } else if (c === '/') return i;
  }
  return i - 1;
}

/** Where a string literal that opens at `start` closes (its closing quote, or the program's end). */
export function stringEnd(program: string, start: number): number {
  let i = start + 1;
  while (i < program.length && program[i] !== '"') i += program[i] === '\\' ? 2 : 1;
  return i;
}
