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
/** Shells: they run the command line given with `-c`, else a script file or their input. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'posh', 'su', 'runuser']);
/** Other programs whose `-c` option takes a command line a shell runs (`script -qc 'x'`, `flock f -c 'x'`). */
export const COMMAND_OPTION_PROGRAMS: ReadonlySet<string> = new Set(['script', 'flock', 'sg']);
/**
 * Programs that run the command formed by (some of) their arguments. Which argument starts
 * the command depends on each one's options, so every later word is tried as its start.
 */
export const WRAPPERS: ReadonlySet<string> = new Set([
  // privileges and users
  'sudo', 'doas', 'pkexec', 'run0', 'sg', 'setpriv', 'runcon', 'chpst', 'aa-exec', 'sandbox-exec',
  // the shell's own
  'env', 'command', 'builtin', 'exec', 'time', 'coproc', 'jobs',
  // scheduling, limits, environment
  'nohup', 'nice', 'ionice', 'chrt', 'taskset', 'numactl', 'prlimit', 'cpulimit', 'timeout', 'setsid', 'stdbuf',
  'unbuffer', 'flock', 'lckdo', 'chronic', 'nocache', 'eatmydata', 'caffeinate', 'cgexec', 'trickle', 'sshpass',
  // personalities, fake roots and sandboxes
  'setarch', 'linux32', 'linux64', 'i386', 'x86_64', 'arch', 'fakeroot', 'fakechroot', 'faketime', 'chroot', 'schroot',
  'unshare', 'nsenter', 'firejail', 'bwrap', 'systemd-run', 'systemd-inhibit', 'dbus-run-session', 'dbus-launch',
  'xvfb-run', 'ssh-agent', 'tini', 'dumb-init', 'daemonize', 'proxychains', 'proxychains4', 'torsocks', 'tsocks',
  // tracers and debuggers that start a program
  'strace', 'ltrace', 'valgrind', 'catchsegv', 'perf',
  // programs that run a command for each input or again and again
  'xargs', 'parallel', 'sem', 'rush', 'watch', 'entr',
  // multi-call binaries and environment managers
  'busybox', 'toybox', 'uv', 'uvx', 'poetry', 'pipenv', 'pdm', 'hatch', 'bundle', 'direnv', 'nix-shell', 'ip', 'script',
  // a terminal multiplexer: its commands run commands (`tmux new-session 'rm x'`); `cmake -E env` is judged in `command-programs`
  'tmux',
]);
/** Wrappers that add arguments to the command when it runs (`xargs rm` gets its files from its input). */
export const RUNTIME_ARGUMENTS: ReadonlySet<string> = new Set(['xargs', 'parallel', 'sem', 'rush', 'entr']);
/** Wrappers that hand a shell an argument as a command line (`parallel 'rm {}' ::: x`, `sg grp 'rm x'`). */
export const LINE_ARGUMENTS: ReadonlySet<string> = new Set(['parallel', 'sem', 'rush', 'sg', 'watch', 'tmux']);
/** Programs that join their arguments into a command line and run it. */
export const EVALUATORS: ReadonlySet<string> = new Set(['eval', 'watch']);
/** Builtins that put their input into variables: a value the line does not show. */
export const READERS: ReadonlySet<string> = new Set(['read', 'mapfile', 'readarray']);
/**
 * Syntax that may run a command again, or later than it stands (a loop, a function, `trap`,
 * `coproc`): after a `cd` on such a line every write may land in the folder entered. Wider
 * than bash: a keyword may follow a `)` (`case x in x)function f {`).
 */
const REPEATING_SYNTAX = /(?:^|[\s;&|(){`])(?:for|while|until|select|function|trap|coproc)(?=[\s;&|()}]|$)|\(\s*\)/;

/** Whether `text` has syntax that may run a command again (see above), read with its line continuations joined as bash joins them (`f (\<newline>) {`). */
export function repeatingSyntax(text: string): boolean {
  return REPEATING_SYNTAX.test(text.replaceAll('\\\n', ''));
}
/**
 * Builtins that may run a command again or later, however their name is quoted (`"trap"`,
 * `t\rap`): a trap's action, `fc` re-running history, an alias.
 */
export const REPEATERS: ReadonlySet<string> = new Set(['trap', 'fc', 'alias', 'coproc', 'history']);
/** The `find` options followed by a command, up to `;` or `+`. */
export const FIND_EXEC: ReadonlySet<string> = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The `-c` argument of a shell (`bash -lc 'x'`, `su -c 'x'`), if it has one. */
export function commandString(args: readonly string[]): string | undefined {
  const flag = commandFlag(args);
  if (flag < 0) return undefined;
  return args.slice(flag + 1).find((arg) => !arg.startsWith('-')) ?? args[flag + 1];
}

/** Where the `-c` option of a shell is in `args` (`-1`: none), with or without the command line after it. */
export function commandFlag(args: readonly string[]): number {
  return args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg));
}

/** Whether a shell without `-c` reads its commands from its input (no script operand, or `-s`), e.g. `curl ... | sh`. */
export function readsInput(shell: string, args: readonly string[]): boolean {
  if (shell === 'su' || shell === 'runuser') return true; // their operand is a user, not a script
  return args.includes('-s') || !args.some((arg) => !arg.startsWith('-') && !arg.startsWith('+'));
}

/**
 * The arguments `program` runs as command lines besides a shell's `-c`: `trap`'s action
 * (after `--` and options), `env -S` / `--split-string` (joined or separate; env splits it
 * into a command, read here as a line, which is wider), and the callback of
 * `mapfile -C` / `readarray -C`.
 *
 * @example
 * ```ts
 * scriptArguments('trap', ['--', 'rm f', 'EXIT']); // ['rm f']
 * scriptArguments('env', ["-Srm f"]); // ['rm f']
 * ```
 */
export function scriptArguments(program: string, args: readonly string[]): string[] {
  if (program === 'trap') {
    let i = 0;
    while (args[i]?.startsWith('-') && args[i] !== '-' && args[i] !== '--') i += 1; // -p, -l
    if (args[i] === '--') i += 1;
    const action = args[i];
    return action === undefined || action === '-' ? [] : [action];
  }
  // Letters only known at run time (`env "-$o"`, `o='Srm f'`) may be `-S`: the rest is read as the line.
  if (program === 'env') return optionValues(args, /^-[A-Za-z]*S(.*)$/s, /^--split-string(?:=(.*))?$/s, /^-[A-Za-z]*(\$.*)$/s);
  // Bash runs the callback with two more words, the index and the line read (`mapfile -C rm`
  // runs `rm 0 'line'`): judged with them, `rm *` matches and `eval` has unreadable code.
  if (program === 'mapfile' || program === 'readarray') return optionValues(args, /^-[A-Za-z]*C(.*)$/s).map((v) => `${v} 0 "$MAPFILE_LINE"`);
  return [];
}

/**
 * The values of the options matching `patterns` (group 1: the value joined to the option; else
 * the next argument). Every argument is tried, not only those before the first operand: which
 * words are operands depends on each option, and a wrong guess only adds a line to judge.
 */
export function optionValues(args: readonly string[], ...patterns: readonly RegExp[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const match = patterns.map((pattern) => pattern.exec(args[i]!)).find((m) => m !== null);
    if (!match) continue;
    const value = match[1] ? match[1] : args[i + 1];
    if (value !== undefined) values.push(value);
    if (!match[1]) i += 1;
  }
  return values;
}
