/**
 * less's options in its environment (`$LESS`, and `$MORE` when less runs as more), read as
 * less 590 reads them (see "OPTIONS" in `man less`): a dash is optional (`LESS=R` is `-R`),
 * options follow each other without a break (`-Rofile` is `-R -o file`), a string value runs
 * to a `$` or the end (`-Ps--More-- -R` is one prompt), a number's to its last digit, and a
 * long name may be abbreviated (`--log=f`, `--LOG-F=f`). What runs a command or writes a file:
 * an initial command (`+!cmd`), a lesskey file (`-k f`, `--lesskey-file=f`, `--lesskey-src=f`,
 * `--lesskey-content=...`: key bindings that run a shell, and `LESSOPEN`), and a log file (`-o f`,
 * `-O f`, `--log-file=f`). Where less and this reading could differ it errs toward finding one:
 * it reads on where less stops at an unknown option, and takes a value no longer than less does.
 *
 * @module
 */
import { quoted } from '../quoted.js';

/** What less does with options in its environment that the rules must judge. */
export interface LessEnvironment {
  /** Why the options may run a command the line does not show, when they may. */
  readonly runs?: string;
  /** The log files they name, as written. */
  readonly logs: readonly string[];
}

/** Letters whose value is any text up to a `$`: `-D` colours, `-k`, `-o`, `-O`, `-p`, `-P`, `-t`, `-T`, `-"`. */
const STRING_LETTERS = 'DkoOpPtT"';
/** Letters whose value is made of some characters only (a jump target, tab stops, a shift). */
const LIMITED_LETTERS: Readonly<Record<string, RegExp>> = { j: /^ *[-.\d]*/, x: /^ *[\d,]*/, '#': /^ *[.\d]*/ };
/** Letters whose value is a number (and a digit alone, more's `-5`, is `-z5`). */
const NUMBER_LETTERS = 'bhyz';
/** Long names taking a string value (those that matter, and the common harmless ones). */
const STRING_NAMES = ['lesskey-file', 'lesskey-src', 'lesskey-content', 'log-file', 'pattern', 'prompt', 'tag', 'tag-file', 'color', 'rscroll', 'quotes'];
const KEY_NAMES = ['lesskey-file', 'lesskey-src', 'lesskey-content'];
const LOG_NAMES = ['log-file'];

/**
 * Reads `value` (a `LESS` or `MORE` value, quotes removed) as less's options.
 *
 * @example
 * ```ts
 * lessEnvironment('-R --squeeze-blank-lines'); // { logs: [] }
 * lessEnvironment('-Rosrc/a.ts'); // { logs: ['src/a.ts'] }
 * lessEnvironment('kbind.key').runs; // 'a lesskey file ("-k"), whose key bindings may run a shell'
 * ```
 */
export function lessEnvironment(value: string): LessEnvironment {
  const logs: string[] = [];
  let runs: string | undefined;
  let at = 0;
  // A string value: leading spaces skipped, then up to a `$`; none when the text ends (less then takes its first argument).
  const text = (): string | undefined => {
    while (value[at] === ' ') at += 1;
    if (at >= value.length) return undefined;
    const end = value.indexOf('$', at);
    const found = value.slice(at, end < 0 ? value.length : end);
    at = end < 0 ? value.length : end;
    return found;
  };
  const take = (pattern: RegExp): void => {
    at += pattern.exec(value.slice(at))?.[0].length ?? 0;
  };
  const judge = (option: string, key: boolean, log: boolean): void => {
    const given = key || log ? text() : undefined;
    if (key) runs ??= `a lesskey file (${quoted(option)}), whose key bindings may run a shell`;
    else if (log && given === undefined) runs ??= `a log file (${quoted(option)}) named by less's first argument`;
    else if (log) logs.push(given!);
  };
  while (at < value.length) {
    const c = value[at]!;
    at += 1;
    if (c === ' ' || c === '\t' || c === '$') continue;
    if (c === '-' && value[at] !== '-') {
      if (value[at] === '+') at += 1; // `-+X` sets X back to its default
      continue;
    }
    if (c === '-') {
      at += value[at + 1] === '+' ? 2 : 1;
      const name = /^[A-Za-z-]*/.exec(value.slice(at))![0];
      at += name.length;
      const lower = name.toLowerCase();
      const fits = (names: readonly string[]): boolean => name !== '' && names.some((full) => full.startsWith(lower));
      // Only `=`, a space or the end may follow a name; less refuses anything else.
      if (value[at] === '=') at += 1;
      else if (at < value.length && value[at] !== ' ') continue;
      if (fits(KEY_NAMES) || fits(LOG_NAMES)) judge(`--${name}`, fits(KEY_NAMES), fits(LOG_NAMES));
      else if (STRING_NAMES.some((full) => full === lower)) text();
      continue;
    }
    if (c === '+') {
      runs ??= 'an initial command ("+"), where "!" runs a shell';
      text();
    } else if (c === 'k' || c === 'o' || c === 'O') judge(`-${c}`, c === 'k', c !== 'k');
    else if (STRING_LETTERS.includes(c)) text();
    else if (LIMITED_LETTERS[c] !== undefined) take(LIMITED_LETTERS[c]);
    else if (NUMBER_LETTERS.includes(c) || /\d/.test(c)) take(/^ *-?\d+/);
  }
  return { ...(runs === undefined ? {} : { runs }), logs };
}
