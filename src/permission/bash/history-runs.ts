/**
 * Builtins that run commands from the shell's history: `fc` runs an entry again (`fc -s`) or
 * runs an editor on it and then the result (`fc -e cmd`); `history -s` / `-r` / `-n` put
 * entries there that no command of the line shows (`history -s 'rm y'; fc -s`), and
 * `set -o history` lets `!` expansion build commands from earlier words.
 *
 * @module
 */
import { SHELLS } from './shell-programs.js';

/**
 * Why running `program` with `args` may run a command from the history, or `undefined`: `fc`
 * but to list (`fc -l`, `fc -ln 1 5`), `history` adding entries, a shell option turning
 * history on.
 *
 * @example
 * ```ts
 * historyRun('fc', ['-s', 'rm']); // '"fc", which runs commands from the history'
 * historyRun('fc', ['-l']); // undefined
 * historyRun('history', []); // undefined
 * ```
 */
export function historyRun(program: string, args: readonly string[]): string | undefined {
  const options = args.filter((arg) => /^-[A-Za-z]/.test(arg)); // `fc -l -10`: a number is no option
  // Bash runs with -s or -e before it lists: only options of l, n and r alone list.
  if (program === 'fc' && !(options.some((o) => o.includes('l')) && options.every((o) => /^-[lnr]+$/.test(o)))) {
    return '"fc", which runs commands from the history';
  }
  if (program === 'history' && options.some((o) => /^-[A-Za-z]*[srn]/.test(o))) return '"history" adding entries, which "fc" or "!" expansion may run';
  // `set -o history`, `bash -o history -c ...`, `shopt -so history`.
  const setter = program === 'set' || program === 'shopt' || SHELLS.has(program);
  if (setter && args.includes('history') && options.some((o) => /^-[A-Za-z]*o[A-Za-z]*$/.test(o))) return 'the shell\'s history turned on, which "!" expansion may run from';
  return undefined;
}
