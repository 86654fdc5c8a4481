/**
 * Programs outside the wrapper and interpreter lists that run commands (the GTFOBins class):
 * `capsh -- ...` hands its later words to bash; ed (`!cmd`) and sqlite3 (`.system cmd`,
 * `.shell`) run commands their input or arguments give, as an interpreter does; tmux reads
 * its commands (`run-shell`...) from a file with `-f` or `source-file`; `cmake -E env`,
 * `chdir` and `time` run the command after them. tmux's other commands are a wrapper's (`WRAPPERS`).
 *
 * @module
 */
import { quoted } from '../quoted.js';

/** Programs that run any command their input or arguments give, like an interpreter. */
const INTERPRETERS = new Set(['ed', 'sqlite3', 'sqlite']);
/** What such a program may be asked without running a command. */
const INFO_ONLY = new Set(['--version', '-version', '-V', '--help', '-help', '-h']);

/**
 * The arguments of the bash that `program` runs (`capsh -- -c 'rm y'`: `['-c', 'rm y']`), if it runs one.
 *
 * @example
 * ```ts
 * shellArguments('capsh', ['--', '-c', 'rm y']); // ['-c', 'rm y']
 * shellArguments('capsh', ['--print']); // undefined
 * ```
 */
export function shellArguments(program: string, args: readonly string[]): readonly string[] | undefined {
  const start = program === 'capsh' ? args.indexOf('--') : -1;
  return start < 0 ? undefined : args.slice(start + 1);
}

/**
 * Whether `program` with `args` runs a command formed by its later words, as a wrapper does
 * (`cmake -E env rm x`, `cmake -E chdir d rm x`). Only these: other cmake words name files
 * and folders (`cmake -S . -B build`), no command.
 */
export function wrapsCommand(program: string, args: readonly string[]): boolean {
  return program === 'cmake' && args[0] === '-E' && ['env', 'chdir', 'time'].includes(args[1] ?? '');
}

/**
 * Why `program` with `args` runs commands the line does not show, or `undefined`.
 *
 * @example
 * ```ts
 * programRun('ed', ['-s', 'f']); // 'a program running commands from its input or arguments ("ed")'
 * programRun('tmux', ['source-file', 'x.conf']); // '"tmux" reading its commands from a file'
 * ```
 */
export function programRun(program: string, args: readonly string[]): string | undefined {
  if (INTERPRETERS.has(program) && !args.every((arg) => INFO_ONLY.has(arg))) {
    return `a program running commands from its input or arguments (${quoted(program)})`;
  }
  if (program === 'tmux' && (tmuxConfig(args) || args.includes('source-file') || args.includes('source'))) {
    return '"tmux" reading its commands from a file';
  }
  return undefined;
}

/** Whether tmux's options before its command name a configuration file (`-f`, in a cluster too); later `-f` is a command's own (`split-window -f`). */
function tmuxConfig(args: readonly string[]): boolean {
  for (let i = 0; i < args.length && args[i]!.startsWith('-'); i += 1) {
    const letters = /^-([A-Za-z0-9]*)$/.exec(args[i]!)?.[1] ?? '';
    if (letters.includes('f')) return true;
    if (/[cLST]$/.test(letters)) i += 1; // the option's value
  }
  return false;
}
