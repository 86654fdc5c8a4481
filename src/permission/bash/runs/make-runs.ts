/**
 * make's variables set on its line (`make CC='rm -rf ..'`) or in front of it
 * (`CC='rm -rf ..' make`: the environment overrides make's built-in `CC`): a recipe such as
 * `$(CC) -c a.c` hands the value to the shell as command text, so `rm -rf .. -c a.c` runs.
 * Each value is read as the command line it may become.
 *
 * @module
 */
import { quoted } from '../../quoted.js';

/** An assignment make reads: `NAME=v`, `NAME:=v`, `NAME::=v`, `NAME+=v`, `NAME?=v`, `NAME!=cmd`. */
const ASSIGNMENT = /^([^\s=:+?!-][^\s=:+?!]*)\s*(::?:?=|[+?!]?=)(.*)$/s;
/** Text a recipe's shell reads as syntax, or make expands (`$(shell ...)`): the value may run anything. */
const SHELL_SYNTAX = /[;&|<>()`'"\\$\n]/;
/** Variables that name a program by custom (make's own `CC`, `RM`..., and `*_CMD`, `*PROG`...): their value is a command even when it is one word. */
const PROGRAM_VARIABLE =
  /^(?:CC|CXX|CPP|LD|AR|AS|FC|F77|RM|MAKE|INSTALL|YACC|LEX|M4|PC|CO|GET|RANLIB|STRIP|OBJCOPY|OBJDUMP|NM|PKG_CONFIG|PYTHON\d*|PERL|RUBY|NODE|NPM|GO|CARGO|JAVAC?|DOCKER|SED|AWK|MKDIR|CP|MV|LN|TAR|ECHO|SH|BASH|.*(?:CMD|COMMAND|PROG|PROGRAM|EXE|TOOL|BIN|SHELL))$/;

/** Whether `program` (a command's name without its folder) is make, whose recipes run its variables and whose makefiles run commands. */
export function isMake(program: string): boolean {
  return program === 'make'; // `gmake` too: the checks know it as make (see `programKind`)
}

/** What make's settings ask of the reader: a reason the line is unreadable, or value lines to judge. */
export interface MakeSettings {
  /** Why the line cannot be read (`X!=cmd`, a value with shell syntax), when it cannot. */
  readonly unreadable?: string;
  /** Values to judge as command lines, with a run-time argument appended; `strict`: what cannot be read in one flags the line. */
  readonly lines: readonly { readonly text: string; readonly strict: boolean }[];
}

/**
 * What make's variable settings on `args` (its operands) and `assignments` (in front of it) may run.
 *
 * @example
 * ```ts
 * makeSettings(["CC=rm -rf .."], []).lines; // [{ text: 'rm -rf .. {}', strict: true }]
 * makeSettings(['X!=rm v'], []).unreadable; // 'a make variable set by running a shell command ("X!=rm v")'
 * makeSettings(['all', 'CFLAGS=-O2'], []).lines; // []
 * ```
 */
export function makeSettings(args: readonly string[], assignments: readonly string[]): MakeSettings {
  const lines: { text: string; strict: boolean }[] = [];
  for (const spelled of [...assignments, ...args]) {
    // make trims a command-line variable's name: `make ' CC=touch'` sets `CC`.
    const word = spelled.trimStart();
    const found = ASSIGNMENT.exec(word);
    if (found === null) continue;
    const [, name = '', operator, value = ''] = found;
    if (operator === '!=') return { unreadable: `a make variable set by running a shell command (${quoted(word)})`, lines };
    if (SHELL_SYNTAX.test(value)) return { unreadable: `a make variable holding shell syntax or a reference, which its recipes may run (${quoted(word)})`, lines };
    // An option list (`CFLAGS=-O2 -g`) starts no command.
    if (value.trim() === '' || value.trimStart().startsWith('-')) continue;
    lines.push({ text: `${value} {}`, strict: /\s/.test(value.trim()) || PROGRAM_VARIABLE.test(name) });
  }
  return { lines };
}
