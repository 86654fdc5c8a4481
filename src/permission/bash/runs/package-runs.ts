/**
 * Package managers' commands that run a program the words after them name: `npx cmd`,
 * `npm exec -- cmd`, `npm x cmd`, `pnpm exec` / `dlx`, `yarn exec` / `dlx`. The program is
 * judged like the command of any wrapper (`npm exec -- rm -rf x` is `rm -rf x`), but only
 * from where it starts: its own arguments (`npx prettier --write src/a.ts`) are no command.
 *
 * @module
 */

/** Programs that run a command given as their first operand. */
const RUNNERS = new Set(['npx', 'pnpx']);
/** Package managers, and their commands that run a command given after them. */
const MANAGERS = new Set(['npm', 'pnpm', 'yarn']);
const RUNNING_COMMANDS = new Set(['exec', 'x', 'dlx']);
/** Options of these runners that take no value: the word after one is no value of it. */
const FLAGS = new Set([
  '-y', '--yes', '--no', '--no-install', '--ignore-existing', '-q', '--quiet', '-s', '--silent', '--offline', '--prefer-offline',
  '--prefer-online', '--verbose', '--workspaces', '-ws', '--include-workspace-root', '-r', '--recursive', '--parallel', '--no-bail',
  '--shell-mode', '--reverse', '--report-summary',
]);

/**
 * The indexes in `args` where the command `base` runs may start: the first operand after
 * the runner's options (`npx --yes rm x`: `rm`), also the next one when the word before it may
 * be an option's value (`npx --registry u rm x`: `u` or `rm`), or the word after `--`. Empty
 * when `base` runs no such command.
 *
 * @example
 * ```ts
 * packageCommandStarts('npm', ['exec', '--', 'rm', 'x']); // [2]
 * packageCommandStarts('npx', ['prettier', '--write', 'src/a.ts']); // [0]
 * packageCommandStarts('npm', ['install']); // []
 * ```
 */
export function packageCommandStarts(base: string, args: readonly string[]): number[] {
  let i = 0;
  if (MANAGERS.has(base)) {
    const end = args.indexOf('--');
    i = (end < 0 ? args : args.slice(0, end)).findIndex((arg) => RUNNING_COMMANDS.has(arg)) + 1;
    if (i === 0) return [];
  } else if (!RUNNERS.has(base)) return [];
  const starts: number[] = [];
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      if (i + 1 < args.length) starts.push(i + 1);
      break;
    }
    if (arg.startsWith('-') && arg !== '-') continue;
    starts.push(i);
    const before = args[i - 1] ?? '';
    // An unknown option may take this word as its value: then the command may start after it.
    if (!before.startsWith('-') || before.includes('=') || FLAGS.has(before)) break;
  }
  return starts;
}
