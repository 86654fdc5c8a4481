/**
 * The files an awk program writes: `print > "f"`, `printf ... >> "f"` (and `print > f`, a
 * file known only when it runs), read statement by statement so that a `>` inside
 * parentheses (`print ($2 > 10 ? "big" : "small")`) compares and a quoted string elsewhere
 * (`$1 == "src/a.ts"`) names no file. gawk's `-i inplace` edits its operands. The commands
 * it runs are read by `awk-runs`.
 *
 * @module
 */

import { regexEnd, stringEnd } from '../runs/awk-syntax.js';
import { isRunTime, mayBeOption, maySplitIntoOption } from '../shell-words.js';
import { quoted } from '../../quoted.js';

/** A word of a command, as the shell parser gave it (`literal`, `input`, `quoted`: see `shell-words`). */
interface Word {
  readonly text: string;
  readonly glob: boolean;
  readonly literal?: true;
  readonly input?: true;
  readonly quoted?: true;
}

/** awk's options taking a value (`-e` / `--source` is gawk's program text; `-f`, `-E` name a program file, whose prints are not on the line). */
const VALUED = 'fvFiIlEe';
const VALUED_LONG = ['file', 'include', 'assign', 'field-separator', 'load', 'exec', 'source'];

/** What awk writes, and its programs' text. */
export interface AwkWrites<W extends Word> {
  readonly files: W[];
  readonly unseen?: string;
  /** The text of its programs on the line (`-e` values included), for the commands they run. */
  readonly programs: string[];
}

/** What awk with `args` writes: the files of its programs' redirected prints, and its operands with `-i inplace`. */
export function awkWrites<W extends Word>(args: readonly W[]): AwkWrites<W> {
  const programs: W[] = [];
  let fromFile = false;
  let inPlace = false;
  const operands: W[] = [];
  // A word only known when it runs, where awk reads an option or its program (up to the first
  // operand, which may itself be an option then), unless its letter is written and it cannot
  // split (`-F"$sep"`; `-F$s`, `-v $a` or `-v*` may become more options: `a='x=1 BEGIN{...}'`).
  let unknown: W | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (mayBeOption(arg) && (!/^-(?:-[a-z]|[A-Za-z])/.test(arg.text) || maySplitIntoOption(arg))) unknown ??= arg;
    if (arg.text === '--' || !arg.text.startsWith('-') || arg.text === '-') {
      const rest = arg.text === '--' ? args.slice(i + 1) : args.slice(i);
      if (programs.length === 0 && !fromFile && rest[0] !== undefined) programs.push(rest.shift()!);
      operands.push(...rest);
      break;
    }
    const long = /^--([A-Za-z-]+)(=?)(.*)$/s.exec(arg.text);
    // A long option's name in any unique abbreviation (`--inc`), its value after `=` or in the next word.
    const name = long === null ? arg.text[1]! : (VALUED_LONG.find((n) => n.startsWith(long[1]!)) ?? '');
    const valued = long === null ? VALUED.includes(name) : name !== '';
    const rest = long === null ? arg.text.slice(2) : long[2] === '=' ? long[3]! : '';
    const attached = rest !== '' || long?.[2] === '=';
    const taken = !valued ? undefined : attached ? { ...arg, text: rest } : args[(i += 1)];
    if (!attached && taken !== undefined && maySplitIntoOption(taken)) unknown ??= taken;
    if (name === 'f' || name === 'E' || name === 'file' || name === 'exec') fromFile = true;
    if ((name === 'e' || name === 'source') && taken !== undefined) programs.push(taken);
    if ((name === 'i' || name === 'include') && taken?.text.includes('inplace') === true) inPlace = true;
  }
  const files: W[] = inPlace ? operands : [];
  for (const program of programs) files.push(...printTargets(program.text).map((text) => ({ ...program, text })));
  const texts = programs.map((p) => p.text);
  if (fromFile) return { files, programs: texts, unseen: 'awk running a program from a file, whose prints may write any path' };
  unknown ??= programs.find((program) => isRunTime(program));
  if (unknown === undefined) return { files, programs: texts };
  return { files, programs: texts, unseen: `a word only known when it runs (${quoted(unknown.text)}), which may be an option or program of awk that runs a command or writes any path` };
}

/**
 * The targets of a program's `print` / `printf` redirections: a quoted name as is, any other
 * expression as `${awk:expr}` (a file known only when it runs).
 */
export function printTargets(program: string): string[] {
  const out: string[] = [];
  const statement = /\bprintf?\b/g;
  for (let m = statement.exec(program); m !== null; m = statement.exec(program)) {
    let depth = 0;
    // What came last: after an operand a `/` divides, elsewhere it opens a regular expression (`print /[(;]/ > f`).
    let operand = false;
    const arrows: number[] = [];
    let i = m.index + m[0].length;
    for (; i < program.length; i += 1) {
      const c = program[i]!;
      if (c === ' ' || c === '\t') continue;
      if (c === '"') i = stringEnd(program, i);
      else if (c === '\\') i += 1;
      else if (c === '/' && !operand) i = regexEnd(program, i);
      else if (c === ';' || c === '}' || c === '\n' || (depth <= 0 && c === '|')) break;
      else if (c === '(') depth += 1;
      else if (c === ')') depth -= 1;
      else if (c === '>') arrows.push(i);
      if (c === '>' && depth <= 0) break;
      operand = /[\w$)\]".]/.test(c) || (c === '/' && operand === false);
    }
    // Parentheses that do not balance: any `>` may redirect.
    const last = arrows[arrows.length - 1];
    const redirects = depth <= 0 && program[i] === '>' ? [i] : depth !== 0 ? arrows : [];
    for (const at of redirects) out.push(target(program, at));
    statement.lastIndex = Math.max(statement.lastIndex, (last ?? i) + 1);
  }
  return out;
}

/**
 * The file a redirection at `at` (`>` or `>>`) names: a quoted name as is, an expression as
 * `${awk:expr}`. A quoted name with more joined to it (`> "out/" $1 ".txt"`) is an expression:
 * the field may hold `../src/x`.
 */
function target(program: string, at: number): string {
  let i = at + (program[at + 1] === '>' ? 2 : 1);
  while (program[i] === ' ' || program[i] === '\t') i += 1;
  if (program[i] === '"') {
    const close = stringEnd(program, i);
    // The statement ends after the name (`;`, `}`, a newline, a pipe, a comment, the end): it is the whole name.
    if (/^[ \t]*(?:[;}\n|#]|$)/.test(program.slice(close + 1))) return program.slice(i + 1, close);
  }
  let end = i;
  while (end < program.length && !';}\n'.includes(program[end]!)) end += 1;
  return `\${awk:${program.slice(i, end).trim()}}`;
}
