/**
 * The values of a program's options as getopt reads them, for the checks that need a path
 * an option names (`cp -t dir`, `curl -o f`, `sort --output=f`).
 *
 * @module
 */

/** A word of a command, as the shell parser gave it. */
interface Word {
  readonly text: string;
  readonly glob: boolean;
}

/**
 * The values of options `-x v`, `-xv`, `-abx v` (a letter of `short` in a cluster; what
 * follows it, or the next word) and `--name v`, `--name=v` (a name of `long`, or an abbreviation of one).
 * Every word is tried, not only those before the first operand: in doubt a word is a value.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * optionValues([w('-sSLo'), w('a.html'), w('https://x')], 'o', ['output']); // [w('a.html')]
 * optionValues([w('--output=b')], 'o', ['output']); // [w('b')]
 * ```
 */
export function optionValues<W extends Word>(args: readonly W[], short: string, long: readonly string[]): W[] {
  const out: W[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const named = /^--([A-Za-z-]{2,})(?:=(.*))?$/s.exec(arg.text);
    if (named !== null) {
      if (!long.some((name) => name.startsWith(named[1]!))) continue;
      const value = named[2] !== undefined ? { ...arg, text: named[2] } : args[i + 1];
      if (value !== undefined) out.push(value);
      continue;
    }
    const cluster = /^-([A-Za-z0-9]+)/.exec(arg.text);
    if (cluster === null || short === '') continue;
    const at = [...arg.text.slice(1)].findIndex((c) => short.includes(c));
    if (at < 0) continue;
    const rest = arg.text.slice(at + 2);
    const value = rest !== '' ? { ...arg, text: rest } : args[i + 1];
    if (value !== undefined) out.push(value);
  }
  return out;
}
