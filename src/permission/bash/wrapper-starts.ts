/**
 * Where the command of a wrapper whose syntax is simple starts (see `wrapper-syntax`): options
 * first, then a fixed number of operands (timeout's duration), with env's and sudo's
 * `NAME=VALUE` settings, then the command. `jobs` runs a command only with `-x`, sudo none with
 * `-l` or `-v`. For these the words after the command are its arguments, never the command
 * (`timeout 5 grep xargs f` runs grep); every other wrapper's later words may each be its command.
 *
 * @module
 */
import { wrapsCommand } from './command-programs.js';
import { longOptionName } from './option-values.js';
import { HEADERS, KEYWORDS, WRAPPERS } from './shell-programs.js';
import { isDynamic, text, type TextWord } from './shell-words.js';
import { commandBase } from './program-names.js';
import { SYNTAX, type Syntax } from './wrapper-syntax.js';

/** Where a wrapper's command starts, and which of its words before it are `NAME=VALUE` settings (env's, sudo's). */
export interface WrappedStart {
  /** The index of the command's name (the words' length: it runs none). */
  readonly command: number;
  /** The indexes of the settings it gives the command's environment. */
  readonly settings: readonly number[];
}

/**
 * Where in `args` (from `from` on: the wrapper's arguments) the command of wrapper `base`
 * starts (`args.length`: it runs none), with the settings before it, or `undefined` when its
 * syntax is not known here or its options are not understood: then any later word may be its command.
 *
 * @example
 * ```ts
 * knownCommandStart('timeout', ['-s', 'KILL', '5', 'grep', 'x']); // { command: 3, settings: [] }
 * knownCommandStart('sudo', ['-u', 'root', 'HOME=/root', 'rm', 'x']); // { command: 3, settings: [2] }
 * knownCommandStart('sudo', ['-l', 'rm', 'x']); // { command: 3, settings: [] } (no command)
 * knownCommandStart('sudo', ['-s', 'rm x']); // undefined
 * ```
 */
export function knownCommandStart(base: string, args: readonly string[], from = 0): WrappedStart | undefined {
  if (base === 'coproc') return { command: coprocStart(args, from), settings: [] };
  const syntax = SYNTAX[base];
  if (syntax === undefined) return undefined;
  const settings: number[] = [];
  let runs = base !== 'jobs';
  let idle = false;
  let i = from;
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      // sudo takes `NAME=VALUE` (not starting with `/`) wherever getopt stops, then reads options again.
      if (syntax.settings !== 'sudo' || arg.startsWith('/') || !arg.includes('=')) break;
      settings.push(i);
      continue;
    }
    if (base === 'nice' && /^-\d+$/.test(arg)) continue; // `nice -5 cmd`
    const read = arg.startsWith('--') ? longOption(syntax, arg) : letters(syntax, arg);
    if (read === undefined) return undefined;
    idle ||= read.idle;
    runs ||= read.x;
    if (read.next) i += 1;
  }
  if (syntax.settings === 'env') {
    if (args[i] === '-') i += 1; // a lone `-` after the options is `-i`
    for (; i < args.length && args[i]!.includes('='); i += 1) settings.push(i);
  }
  if (!runs || idle) return { command: args.length, settings };
  return { command: Math.min(i + syntax.operands, args.length), settings };
}

/**
 * Where `coproc`'s command starts: its first word (`coproc rm x`: a simple command takes no
 * NAME), or past NAME where a compound command follows it (`coproc X { rm x; }`), whose body is
 * then read as a command start (`{` is a keyword there).
 */
function coprocStart(args: readonly string[], from: number): number {
  const next = args[from + 1];
  return next !== undefined && (KEYWORDS.has(next) || HEADERS.has(next) || next === '[[' || next === '((') ? from + 1 : from;
}

/** What an option does: takes the next word as its value, makes the wrapper run no command (sudo's `-l`), is jobs' `-x`. */
interface OptionRead {
  readonly next: boolean;
  readonly idle: boolean;
  readonly x: boolean;
}

/** What one long option (`--name`, `--name=value`) does; `undefined`: not understood. */
function longOption(syntax: Syntax, arg: string): OptionRead | undefined {
  const at = arg.indexOf('=');
  const name = longOptionName(at < 0 ? arg.slice(2) : arg.slice(2, at), Object.keys(syntax.long));
  const kind = name === undefined ? undefined : syntax.long[name];
  if (kind === undefined || kind === 'unread') return undefined; // unknown, a prefix of several, or a command not read here
  if (at >= 0 && (kind === 'flag' || kind === 'idle')) return undefined;
  return { next: kind === 'value' && at < 0, idle: kind === 'idle', x: false };
}

/** What a bundle of letters (`-nu`, `-uroot`, `-lU bob`, `-rx`) does; `undefined`: not understood. */
function letters(syntax: Syntax, arg: string): OptionRead | undefined {
  let idle = false;
  let x = false;
  for (let at = 1; at < arg.length; at += 1) {
    const letter = arg[at]!;
    // A letter taking a value takes the rest of the word, or the next word.
    if (syntax.valued.includes(letter)) return { next: at === arg.length - 1, idle, x };
    if (syntax.idle?.includes(letter)) idle = true;
    else if (!syntax.flags.includes(letter)) return undefined;
    x ||= letter === 'x';
  }
  return { next: false, idle, x };
}

/**
 * Where a wrapper's command starts as `knownCommandStart` says, from its words as written;
 * `undefined` also when a word before the command is only known when it runs: it may become
 * several words or none (`timeout $T grep rm y` with `T='5 rm'` runs rm) or an option
 * (`sudo "$o" grep rm y` with `o=-u`).
 */
export function wrappedStart(base: string, plain: readonly TextWord[], from: number): WrappedStart | undefined {
  const start = knownCommandStart(base, plain.map(text), from);
  if (start === undefined) return undefined;
  const before = plain.slice(from, Math.min(start.command, plain.length));
  return before.some((word) => isDynamic(word) || word.text.includes('{}')) ? undefined : start;
}

/**
 * Which of a command's words may be where a command starts: the first, and past each wrapper
 * where it starts (see `wrapper-starts`), or, when that is not known, any later word.
 * `redirected`: the command has redirections, which may hide words (`5 >f` reads as `5>f`);
 * coproc takes no options or operands, so none can hide where its command starts.
 */
export function commandStarts(plain: readonly TextWord[], redirected: boolean): (index: number) => boolean {
  const starts = new Set([0]);
  const texts = plain.map(text);
  for (let i = 0; i < plain.length; i += 1) {
    if (!starts.has(i)) continue;
    const base = commandBase(texts[i]!);
    if (!WRAPPERS.has(base) && !(base === 'cmake' && wrapsCommand(base, texts.slice(i + 1)))) continue;
    const start = redirected && base !== 'coproc' ? undefined : wrappedStart(base, plain, i + 1);
    if (start === undefined) return (index) => starts.has(index) || index > i;
    starts.add(start.command);
  }
  return (index) => starts.has(index);
}
