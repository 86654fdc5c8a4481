/**
 * Where the command of a wrapper whose syntax is simple starts: options first (getopt with
 * `+`: they end at the first operand), then a fixed number of operands (timeout's duration),
 * then the command. `jobs` runs a command only with `-x`. For these the words after the
 * command are its arguments, never the command (`timeout 5 grep xargs f` runs grep); every
 * other wrapper's later words may each be its command.
 *
 * @module
 */
import { wrapsCommand } from './command-programs.js';
import { longOptionName } from './option-values.js';
import { WRAPPERS } from './shell-programs.js';
import { basename, text, type TextWord } from './shell-words.js';

/** A wrapper's syntax: letters taking a value, long names taking one, other letters and long names (flags), operands before the command. */
interface Syntax {
  readonly valued: string;
  readonly longValued: readonly string[];
  readonly flags: string;
  readonly longFlags: readonly string[];
  readonly operands: number;
}

const SYNTAX: Readonly<Record<string, Syntax>> = {
  timeout: { valued: 'ks', longValued: ['kill-after', 'signal'], flags: 'fpv', longFlags: ['foreground', 'preserve-status', 'verbose'], operands: 1 },
  nice: { valued: 'n', longValued: ['adjustment'], flags: '', longFlags: [], operands: 0 },
  nohup: { valued: '', longValued: [], flags: '', longFlags: [], operands: 0 },
  stdbuf: { valued: 'ioe', longValued: ['input', 'output', 'error'], flags: '', longFlags: [], operands: 0 },
  setsid: { valued: '', longValued: [], flags: 'cfw', longFlags: ['ctty', 'fork', 'wait'], operands: 0 },
  // bash's `jobs -x command args` (with -r or -s too) runs the command; other options list jobs.
  jobs: { valued: '', longValued: [], flags: 'xrslpn', longFlags: [], operands: 0 },
};

/**
 * Where in `args` (from `from` on: the wrapper's arguments) the command of wrapper `base`
 * starts (`args.length`: it runs none), or `undefined` when its syntax is not known here or
 * its options are not understood: then any later word may be its command.
 *
 * @example
 * ```ts
 * knownCommandStart('timeout', ['-s', 'KILL', '5', 'grep', 'x']); // 3
 * knownCommandStart('jobs', ['-x', 'echo', 'a']); // 1
 * knownCommandStart('jobs', ['-l']); // 1 (no command)
 * knownCommandStart('sudo', ['rm', 'x']); // undefined
 * ```
 */
export function knownCommandStart(base: string, args: readonly string[], from = 0): number | undefined {
  const syntax = SYNTAX[base];
  if (syntax === undefined) return undefined;
  let i = from;
  let runs = base !== 'jobs';
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (base === 'nice' && /^-\d+$/.test(arg)) continue; // `nice -5 cmd`
    if (arg.startsWith('--')) {
      const [name, value] = arg.includes('=') ? [arg.slice(2, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg.slice(2), undefined];
      const valued = longOptionName(name, syntax.longValued);
      const flag = longOptionName(name, syntax.longFlags);
      if ((valued === undefined) === (flag === undefined)) return undefined; // unknown, or a prefix of both
      if (valued !== undefined && value === undefined) i += 1;
      if (flag !== undefined && value !== undefined) return undefined;
      continue;
    }
    for (let at = 1; at < arg.length; at += 1) {
      const letter = arg[at]!;
      if (syntax.valued.includes(letter)) {
        if (at === arg.length - 1) i += 1;
        break;
      }
      if (!syntax.flags.includes(letter)) return undefined;
      runs ||= letter === 'x';
    }
  }
  if (!runs) return args.length;
  const start = i + syntax.operands;
  return Math.min(start, args.length);
}

/**
 * Which of a command's words may be where a command starts: the first, and past each wrapper
 * where it starts (see `wrapper-starts`), or, when that is not known, any later word.
 * `redirected`: the command has redirections, which may hide words (`5 >f` reads as `5>f`).
 */
export function commandStarts(plain: readonly TextWord[], redirected: boolean): (index: number) => boolean {
  const starts = new Set([0]);
  const texts = plain.map(text);
  for (let i = 0; i < plain.length; i += 1) {
    if (!starts.has(i)) continue;
    const base = basename(texts[i]!);
    if (!WRAPPERS.has(base) && !(base === 'cmake' && wrapsCommand(base, texts.slice(i + 1)))) continue;
    const start = redirected ? undefined : knownCommandStart(base, texts, i + 1);
    if (start === undefined) return (index) => starts.has(index) || index > i;
    starts.add(start);
  }
  return (index) => starts.has(index);
}
