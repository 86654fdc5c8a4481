/**
 * The programs and reserved words a bash rule must know about to see which command a
 * simple command really runs: wrappers, shells and evaluators that run other commands.
 *
 * @module
 */

/** Reserved words in front of a command, which are not the command. */
export const KEYWORDS: ReadonlySet<string> = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac']);
/** Words that start a statement whose own words run nothing (its substitutions are judged separately). */
export const HEADERS: ReadonlySet<string> = new Set(['for', 'case', 'select', 'in']);
/** Programs that run the command line given in an argument (with `-c`). */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'su', 'runuser']);
/** Programs that run the command formed by (some of) their arguments. */
export const WRAPPERS: ReadonlySet<string> = new Set([
  'sudo', 'doas', 'pkexec', 'run0', 'env', 'command', 'builtin', 'exec', 'nohup', 'nice', 'ionice', 'time', 'timeout',
  'setsid', 'stdbuf', 'xargs', 'chrt', 'taskset', 'chroot', 'unbuffer', 'flock', 'busybox', 'strace', 'ltrace', 'nsenter', 'unshare',
  'coproc', 'watch',
]);
/** Programs that join their arguments into a command line and run it. */
export const EVALUATORS: ReadonlySet<string> = new Set(['eval', 'watch']);
/** The `find` options followed by a command, up to `;` or `+`. */
export const FIND_EXEC: ReadonlySet<string> = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The `-c` argument of a shell (`bash -lc 'x'`, `su -c 'x'`), if it has one. */
export function commandString(args: readonly string[]): string | undefined {
  const flag = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg));
  if (flag < 0) return undefined;
  return args.slice(flag + 1).find((arg) => !arg.startsWith('-')) ?? args[flag + 1];
}

/** Whether a shell without `-c` reads its commands from its input (no script operand, or `-s`), e.g. `curl ... | sh`. */
export function readsInput(shell: string, args: readonly string[]): boolean {
  if (shell === 'su' || shell === 'runuser') return true; // their operand is a user, not a script
  return args.includes('-s') || !args.some((arg) => !arg.startsWith('-') && !arg.startsWith('+'));
}
