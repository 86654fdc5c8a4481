/**
 * xargs's options read as its getopt does, for where its command starts and what it fills in:
 * the `-I` placeholder it replaces with each input line, or the items it appends.
 *
 * @module
 */
import { isDynamic, text, type TextWord } from './shell-words.js';
import { quoted } from '../quoted.js';

/** How xargs runs its command. */
export interface XargsRun {
  /** Index in its arguments of the command's name (`args.length`: none, so it runs echo). */
  readonly command: number;
  /** The word replaced with each input line (the last `-I R`, `-iR`, `--replace[=R]`). */
  readonly placeholder?: string;
  /** Whether input items are appended to the command (no placeholder, or an `-L`, or an `-n` but `-n 1`, after it cancels it). */
  readonly appends: boolean;
  /** The variables `--process-slot-var` sets in the command's environment (to a slot number: `PATH=0`). */
  readonly slots: readonly string[];
}

// getopt's "0a:d:E:e::I:i::L:l::n:oprP:s:tx": flags, options with a value, options with an attached optional value.
const FLAGS = new Set('0oprtx');
const VALUED = new Set('adEILnPs');
const OPTIONAL = new Set('eil');
// Long options and their short twin (`''`: none, `slot`: `--process-slot-var`); `=` marks a required value, `?` an optional one.
const LONG: Readonly<Record<string, string>> = {
  null: '0', 'arg-file=': 'a', 'delimiter=': 'd', 'eof?': 'e', 'replace?': 'i', 'max-lines?': 'l', 'max-args=': 'n',
  'open-tty': 'o', interactive: 'p', 'no-run-if-empty': 'r', 'max-chars=': 's', verbose: 't', exit: 'x', 'max-procs=': 'P',
  'process-slot-var=': 'slot', 'show-limits': '', help: '', version: '',
};

/**
 * Reads xargs's arguments; a string (why) where an option is not understood, so the command
 * and its placeholder are not known.
 */
export function readXargs(args: readonly string[]): XargsRun | string {
  let placeholder: string | undefined;
  let appends = true;
  const slots: string[] = [];
  const set = (option: string, value: string | undefined): void => {
    if (option === 'i' || option === 'I') {
      placeholder = value ?? '{}';
      appends = false;
    } else if ((option === 'l' || option === 'L') && placeholder !== undefined) appends = true; // xargs drops the replacement
    // ... and so it does for `-n N` but `-n 1` (`xargs -I{} -n 2 rm -f x` removes what it reads): kept here, judging more.
    else if (option === 'n' && placeholder !== undefined && value !== '1') appends = true;
    else if (option === 'slot' && value !== undefined) slots.push(value);
  };
  let i = 0;
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return finish(i + 1);
    if (!arg.startsWith('-') || arg === '-') break;
    if (arg.startsWith('--')) {
      const [name, value] = arg.includes('=') ? [arg.slice(2, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg.slice(2), undefined];
      // getopt_long takes an exact name or a prefix of only one (`--max-a 1`).
      const keys = Object.keys(LONG);
      const exact = keys.filter((k) => k.replace(/[=?]$/, '') === name);
      const matches = exact.length > 0 ? exact : keys.filter((k) => k.startsWith(name));
      if (matches.length !== 1) return `xargs with an option not understood (${quoted(arg)})`;
      const key = matches[0]!;
      if (key.endsWith('=') && value === undefined) {
        if (i + 1 >= args.length) return `xargs with an option not understood (${quoted(arg)})`;
        i += 1;
        set(LONG[key]!, args[i]);
      } else if (!/[=?]$/.test(key) && value !== undefined) return `xargs with an option not understood (${quoted(arg)})`;
      else set(LONG[key]!, value);
      continue;
    }
    for (let at = 1; at < arg.length; at += 1) {
      const option = arg[at]!;
      if (FLAGS.has(option)) continue;
      if (OPTIONAL.has(option)) {
        set(option, at + 1 < arg.length ? arg.slice(at + 1) : undefined);
        break;
      }
      if (!VALUED.has(option)) return `xargs with an option not understood (${quoted(arg)})`;
      if (at + 1 < arg.length) set(option, arg.slice(at + 1));
      else if (i + 1 < args.length) set(option, args[(i += 1)]);
      else return `xargs with an option not understood (${quoted(arg)})`;
      break;
    }
  }
  return finish(i);

  function finish(command: number): XargsRun | string {
    if (placeholder === '') return 'xargs with an empty replacement string';
    return { command, ...(placeholder === undefined ? {} : { placeholder }), appends, slots };
  }
}

/**
 * Where xargs's command starts in `plain` (its words, xargs's name at `from - 1`), as an index
 * there; `undefined` when its options are not understood, or a word before the command is only
 * known when it runs (`xargs $o ls`: `$o` may be an option, several words or none) or holds
 * `{}` (an outer xargs or find fills it in).
 */
export function xargsStart(plain: readonly TextWord[], from: number): number | undefined {
  const run = readXargs(plain.slice(from).map(text));
  if (typeof run === 'string') return undefined;
  const command = from + run.command;
  const before = plain.slice(from, command);
  // `-I{}`, `-I {}`, `--replace={}` give xargs's own placeholder (an outer filler's `{}` there is its command name: see `filled-names`).
  const own = (word: TextWord, at: number): boolean => OWN_BRACES.test(word.text) || (word.text === '{}' && /^-[0oprtx]*I$/.test(before[at - 1]?.text ?? ''));
  return before.some((word, at) => isDynamic(word) || (word.text.includes('{}') && !own(word, at))) ? undefined : command;
}

/** An xargs option word giving `{}` as its placeholder. */
const OWN_BRACES = /^-[0oprtx]*[Ii]\{\}$|^--r[a-z]*=\{\}$/;
