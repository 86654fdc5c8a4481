/**
 * The values of a program's options as getopt reads them, for the checks that need a path
 * an option names (`cp -t dir`, `curl -o f`, `sort --output=f`).
 *
 * @module
 */
import { runTimeOption } from './run-time-names.js';
import { mayBeOption, maySplitIntoOption } from './shell-words.js';

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
    const named = /^--([A-Za-z-]+)(?:=(.*))?$/s.exec(arg.text);
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

/**
 * A program's operands: its words that are no option and no option's value, as getopt reads
 * them with `short` letters and `long` names taking a value (`uniq -f 1 a b` has `a`, `b`),
 * and whether an option comes after an operand (`cp y src/a -S .bak`): then an option the
 * lists do not know may have taken a word, and the caller should treat every operand alike.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * operandsOf([w('-f'), w('1'), w('a'), w('b')], 'fsw', ['skip-fields']).operands; // [w('a'), w('b')]
 * ```
 */
export function operandsOf<W extends Word>(args: readonly W[], short: string, long: readonly string[]): { operands: W[]; mixed: boolean } {
  const operands: W[] = [];
  let mixed = false;
  let ended = false;
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]!.text;
    if (ended || !text.startsWith('-') || text === '-') {
      operands.push(args[i]!);
      continue;
    }
    if (text === '--') {
      ended = true;
      continue;
    }
    if (operands.length > 0) mixed = true;
    const named = /^--([A-Za-z0-9-]+)(=?)/.exec(text);
    if (named !== null) {
      // A unique prefix of a valued name takes the next word unless it has `=`.
      if (named[2] === '' && long.some((name) => name.startsWith(named[1]!))) i += 1;
      continue;
    }
    const letters = text.slice(1);
    const at = [...letters].findIndex((c) => short.includes(c));
    if (at === letters.length - 1) i += 1;
  }
  return { operands, mixed };
}

/**
 * The one long option `given` names: a name of `names` exactly, or the prefix of only one of
 * them (getopt_long and Perl's Getopt::Long take such abbreviations); `undefined` when it is
 * none, or the prefix of several.
 *
 * @example
 * ```ts
 * longOptionName('fore', ['foreground', 'verbose']); // 'foreground'
 * longOptionName('s', ['signal', 'silent']); // undefined
 * ```
 */
export function longOptionName(given: string, names: readonly string[]): string | undefined {
  if (names.includes(given)) return given;
  const matches = names.filter((name) => name.startsWith(given));
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * The first of `args` (before `--`) only known when it runs that may then be an option the line
 * does not show (`o=-o; sort $o f`, `sort "$o"=f`, `-s$o`): an expansion, glob or what xargs
 * reads. A word the program takes as an option's value (one of `values`, or one whose written
 * letters hold one of `valued`, which takes the rest: `-o"$f"` with `valued` holding `o`) counts
 * only where it may split (`-l $n` with `n='5 -i'`), and is no end of options where it is `--`
 * (`sed -e -- "$o" f` may be `-i`).
 */
export function runTimeOptionWord<W extends Word & { readonly literal?: true; readonly input?: true; readonly quoted?: true }>(args: readonly W[], valued = '', values: ReadonlySet<W> = new Set()): W | undefined {
  for (const arg of args) {
    const value = values.has(arg) || [...(/^-([A-Za-z]*)\$/.exec(arg.text)?.[1] ?? '')].some((c) => valued.includes(c));
    if (arg.text === '--' && !values.has(arg)) return undefined;
    if (value ? maySplitIntoOption(arg) : runTimeOption(arg.text) || (mayBeOption(arg) && (!/^-(?:-[a-z]|[A-Za-z])/.test(arg.text) || maySplitIntoOption(arg)))) return arg;
  }
  return undefined;
}
