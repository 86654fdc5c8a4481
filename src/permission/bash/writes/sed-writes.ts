/**
 * What a `sed` line writes: its file operands with `-i` (not its script, nor the values of
 * `-e`, `-f`, `-l`), and the files its script names with a `w` / `W` command or the `w` flag
 * of `s///`. The script is read command by command, as sed reads it, so a `w` inside a
 * regular expression, a replacement or a word (`/throw/p`) names no file, and each file
 * costs one target however long the script. A script running commands (GNU sed's `e` command
 * and `s///e` flag) may write any path, and makes the line unreadable.
 *
 * @module
 */

import { runTimeOptionWord } from '../option-values.js';
import { isRunTime } from '../shell-words.js';
import { readScript } from './sed-script.js';
import { quoted } from '../../quoted.js';

/** A word of a command, as the shell parser gave it (`literal`, `input`, `quoted`: see `shell-words`). */
interface Word {
  readonly text: string;
  readonly glob: boolean;
  readonly literal?: true;
  readonly input?: true;
  readonly quoted?: true;
}

/** What sed writes: files, and why it may write a file the line does not show, if it may. */
export interface SedWrites<W extends Word> {
  readonly files: W[];
  readonly unseen?: string;
}

/** sed's long options, for a prefix as getopt reads one (`--in` is `--in-place`). */
const LONG = ['in-place', 'expression', 'file', 'line-length', 'null-data', 'zero-terminated', 'quiet', 'silent', 'separate',
  'unbuffered', 'regexp-extended', 'posix', 'sandbox', 'debug', 'follow-symlinks', 'binary', 'help', 'version'];
/** Long options taking the next word as their value. */
const VALUED_LONG = new Set(['expression', 'file', 'line-length']);
/** Why a script sed reads from a file (`-f`) counts as writing anything: its `w` commands are not on the line. */
const SCRIPT_FILE = 'sed running a script from a file, whose "w" and "e" commands may write any path or run any command';
const UNREADABLE = 'a sed script this checker cannot read, whose "w" commands may write any path';
/** Why GNU sed's `e` command (`1e cmd`, a bare `e` runs each line) or the `e` flag of `s` makes sed unreadable: it runs commands. */
const RUNS = 'a sed script running commands (its "e" command, or the "e" flag of "s"), which may run any command and write any path';
/** Why a word only known when it runs makes sed unreadable: it may be an option or script text that runs a command (`e`) or writes any path (`w`, `-i`). */
const runTime = (word: string): string => `a word only known when it runs (${quoted(word)}), which may be an option or script of sed that runs a command or writes any path`;

/** What `sed` with `args` writes (see the module). */
export function sedWrites<W extends Word>(args: readonly W[]): SedWrites<W> {
  const scripts: W[] = [];
  const operands: W[] = [];
  let inPlace = false;
  let fromFile = false;
  let ended = false;
  // The words options take as their value in the next word (`-l $n`), for the check of run-time words below.
  const values = new Set<W>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (ended || !arg.text.startsWith('-') || arg.text === '-') {
      operands.push(arg);
      continue;
    }
    if (arg.text === '--') ended = true;
    else if (arg.text.startsWith('--')) {
      const [name = '', value] = arg.text.slice(2).split(/=(.*)/s);
      // getopt takes a unique prefix; an ambiguous one (`--s`) is an error, so any match counts.
      const full = LONG.filter((n) => n.startsWith(name));
      if (full.includes('in-place')) inPlace = true;
      const valued = full.find((n) => VALUED_LONG.has(n));
      if (valued !== undefined && full.length === 1) {
        const taken = value !== undefined ? { ...arg, text: value } : args[(i += 1)];
        if (value === undefined && taken !== undefined) values.add(taken);
        if (taken !== undefined && valued === 'expression') scripts.push(taken);
        if (valued === 'file') fromFile = true;
      }
    } else {
      // A cluster: `-ni`, `-i.bak` (the rest is a suffix), `-es/a/b/` (the rest is the value).
      for (let at = 1; at < arg.text.length; at += 1) {
        const letter = arg.text[at]!;
        if (letter === 'i') {
          inPlace = true;
          break;
        }
        if (letter === 'e' || letter === 'f' || letter === 'l') {
          const rest = arg.text.slice(at + 1);
          const taken = rest !== '' ? { ...arg, text: rest } : args[(i += 1)];
          if (rest === '' && taken !== undefined) values.add(taken);
          if (letter === 'e' && taken !== undefined) scripts.push(taken);
          if (letter === 'f') fromFile = true;
          break;
        }
      }
    }
  }
  // Without `-e` or `-f` the first operand is the script.
  if (scripts.length === 0 && !fromFile && operands.length > 0) scripts.push(operands.shift()!);
  const files: W[] = inPlace ? [...operands] : [];
  // A word only known when it runs, where GNU sed reads an option (anywhere before `--`): `-i`,
  // `-e e` (run each line), `-ew f` may come of it (`-n$o` with `o=i`); so may an unquoted `-l$n`
  // (`n='5 -i'`) or `-n*` (a file named `-ni`), but not a quoted value (`-l"$n"`, `-i"$s"`).
  const unknown = runTimeOptionWord(args, 'iefl', values) ?? scripts.find((script) => isRunTime(script));
  let unseen: string | undefined = fromFile ? SCRIPT_FILE : unknown === undefined ? undefined : runTime(unknown.text);
  for (const script of scripts) {
    const read = readScript(script.text);
    if (read === undefined) unseen ??= UNREADABLE;
    else {
      if (read.runs) unseen ??= RUNS;
      files.push(...read.files.map((text) => ({ ...script, text })));
    }
  }
  return { files, ...(unseen === undefined ? {} : { unseen }) };
}
