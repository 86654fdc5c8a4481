/**
 * Bash's `keyword` option (`set -k`, `set -o keyword`, `shopt -so keyword`, `bash -k`): with it
 * on, an assignment word anywhere in a command (`git log LESS='+!rm y'`, `bash -c true
 * BASH_ENV=e`) goes into the command's environment, where the rules read only the assignments
 * in front of it. A line turning it on is unreadable.
 *
 * @module
 */

/** Shells whose `-k` (or `-o keyword`) is bash's keyword option, or may be. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh']);
const WHY = 'the "keyword" option ("set -k"), which puts assignment words after a command name into its environment';

/**
 * Why `base` run with `args` may turn on the keyword option, or `undefined`.
 *
 * @param dynamic - which of `args` are only known when it runs (`set $x` may be `set -k`).
 */
export function keywordOption(base: string, args: readonly string[], dynamic: readonly boolean[]): string | undefined {
  if (base === 'shopt') {
    // `shopt -o` reaches set's options: `shopt -so keyword`, or a name known only when it runs.
    const setOptions = args.some((arg) => /^-[A-Za-z]*o/.test(arg));
    return setOptions && args.some((arg, i) => arg === 'keyword' || dynamic[i] === true || expandsToOption(arg)) ? WHY : undefined;
  }
  if (base !== 'set' && !SHELLS.has(base)) return undefined;
  // Options come before the first operand (`set a -k` sets $2), and end at `--` or `-`.
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    // A word known only when it runs may be an option, unless it starts as no option can:
    // `sh -c 'echo "$1"'` is the command string, an operand (`set $o`, `"-$o"` may be `-k`).
    if ((dynamic[i] === true && mayBeOption(arg)) || expandsToOption(arg)) return WHY;
    if (arg === '--' || arg === '-' || !/^[-+]/.test(arg) || arg.startsWith('--')) {
      if (arg.startsWith('--') && arg !== '--' && SHELLS.has(base)) continue; // bash's long options (`--norc`)
      return undefined;
    }
    if (arg.startsWith('-') && arg.slice(1).includes('k')) return WHY;
    // `-o keyword` (`-eo keyword`): the option's name is the next word; `-O name` is shopt's.
    if (/^[-+][A-Za-z]*[oO]$/.test(arg)) {
      if (arg.startsWith('-') && arg.endsWith('o') && (args[i + 1] === 'keyword' || dynamic[i + 1] === true || expandsToOption(args[i + 1] ?? ''))) return WHY;
      i += 1;
    }
  }
  return undefined;
}

/**
 * Whether a word the checker reads as text may still be an option in bash: a tilde prefix alone (`~`,
 * `~+`, `~-`, `~2`) is $HOME, $PWD, $OLDPWD or a pushd entry, which the line may set to `-k`
 * (`~name` is a home folder); a lone `@`, `+` or `!` is what the parser leaves of an extglob
 * (`set @(-k)` matches a file named -k once `shopt -s extglob` ran).
 */
function expandsToOption(arg: string): boolean {
  return /^~[-+]?\d*$/.test(arg) || arg === '@' || arg === '+' || arg === '!';
}

/** Whether a word known only when it runs may start with `-` or `+` then (its text as written starts so, or with an expansion, a glob or a quote). */
function mayBeOption(arg: string): boolean {
  return !/^[A-Za-z0-9_./:=@%,]/.test(arg);
}
