/**
 * What env and sudo do to the paths a line writes: a change of folder among their own options
 * (env's `-C` / `--chdir`, sudo's `-D` / `--chdir`, `-R` / `--chroot`: not the same letters in
 * the command they run, `env grep -C 3 x`), and the files `sudo -e` / `--edit` and `sudoedit`
 * edit, read as sudo 1.9's `parse_args` reads its options.
 *
 * @module
 */
import { longOptionName } from '../option-values.js';
import { isDynamic, type TextWord } from '../shell-words.js';
import { knownCommandStart, wrappedStart } from '../wrapper-starts.js';
import { SYNTAX } from '../wrapper-syntax.js';
import type { WrittenWord } from './written-words.js';
import { quoted } from '../../quoted.js';

/** A word as the wrapper readers take it. */
const asWord = (word: WrittenWord): TextWord => ({ kind: 'word', text: word.text, glob: word.glob });
/** `{fd}>f` allocates a descriptor: bash drops the word, which the words read here still hold. */
const DESCRIPTOR_NAME = /^\{[A-Za-z_]\w*\}$/;

/**
 * Whether env's or sudo's own options change the folder (or root) its command runs in. Only
 * the words before its command count (see `wrapper-starts`); where that start is not known
 * (`env -S`, `sudo -e`, a word known only when the line runs, the command's name among them),
 * or the words read may not be bash's (see {@link mayHideWords}), every word does.
 */
export function wrapperMovesFolder(base: 'env' | 'sudo', args: readonly WrittenWord[]): boolean {
  // sudo's `-C N` closes descriptors from N on (`--close-from`): its folder letters are `-D` and `-R`, env's `-C`.
  const letters = base === 'sudo' ? /^-[A-Za-z]*[DR]/ : /^-[A-Za-z]*[CD]/;
  const moves = (word: WrittenWord): boolean => letters.test(word.text) || changesFolder(word.text);
  const words = args.map(asWord);
  const start = wrappedStart(base, words, 0);
  // A command name only known when it runs may be an option (`sudo "$o" tee x` with `o=-Dsrc`).
  const named = start === undefined ? undefined : words[start.command];
  if (start === undefined || (named !== undefined && isDynamic(named)) || mayHideWords(base, args, start.command)) return args.some(moves);
  return args.slice(0, start.command).some(moves);
}

/**
 * Whether a redirection may make bash's words differ from these before the command starts so
 * that its options run on past it. The parser splits `5 >f` as `5>f` (its `5` dropped as a
 * descriptor), and `{fd}>f` keeps `{fd}` as a word: a dropped word makes an option's value
 * that looks like an option (`sudo -u -g x`) an option again (`sudo -u 5 >f -g x -D y cmd`);
 * a kept `{fd}` ends the options early.
 */
function mayHideWords(base: string, args: readonly WrittenWord[], command: number): boolean {
  const texts = args.map((a) => a.text);
  return texts.slice(0, command + 1).some((text, at) => {
    if (DESCRIPTOR_NAME.test(text)) return true;
    if (at === 0 || !text.startsWith('-')) return false;
    // An option ends the options where it stands once it is made a command; a value does not.
    return knownCommandStart(base, texts.map((t, i) => (i === at ? 'x' : t)))?.command !== at;
  });
}

/** Whether a long option is `--chdir` or `--chroot`, or an abbreviation getopt may accept for one (`--ch=src`, env's `--c`). */
function changesFolder(arg: string): boolean {
  const name = /^--([a-z]+)(?:=|$)/.exec(arg)?.[1];
  return name !== undefined && ('chdir'.startsWith(name) || 'chroot'.startsWith(name));
}

/** The files sudo edits: its operands; `anyPath` when its options cannot be read; `chdir` for `-D` / `-R`. */
export interface SudoEdits {
  readonly files: readonly WrittenWord[];
  readonly anyPath?: string;
  readonly chdir: boolean;
}

const SUDO = SYNTAX['sudo']!;
/** Letters taking no value: those of the command-start reading, and `-e`, `-i`, `-s`, `-K`, `-V` (with `-e` the last four stop sudo). */
const NO_VALUE = `${SUDO.flags}${SUDO.idle ?? ''}eisKV`;
const LONG_NAMES = Object.keys(SUDO.long);
/** What sudo takes as a `NAME=VALUE` setting where an option may stand. */
const isSetting = (text: string): boolean => !text.startsWith('/') && !text.startsWith('=') && text.includes('=');

/**
 * What `sudo -e` / `--edit` or `sudoedit` edits (`base`: sudo or sudoedit): the operands after
 * its options; `undefined` when it edits nothing. An option it cannot read, or a word known only
 * when the line runs where an option or its value may stand, leaves the operands unknown: any path.
 */
export function sudoEdits(base: string, args: readonly WrittenWord[]): SudoEdits | undefined {
  let edit = base === 'sudoedit';
  let chdir = false;
  let unread: string | undefined;
  let i = 0;
  for (; i < args.length; i += 1) {
    const word = args[i]!;
    const text = word.text;
    // A word only known when it runs may be an option, several words or none (`$O`, `*`), unless it starts plainly (`src/$f`).
    if (isDynamic(asWord(word)) && !/^[\w./]/.test(text)) unread = text;
    if (unread !== undefined || text === '--') break;
    if (!text.startsWith('-') || text === '-') {
      if (isSetting(text)) continue; // sudo reads options again after it (in edit mode it refuses to run)
      break;
    }
    const read = text.startsWith('--') ? longRead(text) : shortRead(text, args[i + 1]);
    // A value only known when it runs may be several words or none (`-u $U`).
    const value = read?.next === true ? args[i + 1] : undefined;
    if (read === undefined || (value !== undefined && isDynamic(asWord(value)))) {
      unread = value?.text ?? text;
      break;
    }
    edit ||= read.edit;
    chdir ||= read.chdir;
    if (read.next) i += 1;
  }
  if (unread !== undefined) {
    const later = args.slice(i).some((a) => /^-[A-Za-z]*e|^--e(?:d(?:i(?:t)?)?)?(?:=|$)/.test(a.text));
    return edit || later ? { files: [], chdir: true, anyPath: `${base} editing files past ${quoted(unread)}, whose options the checker cannot read, which may write any path` } : undefined;
  }
  return edit ? { files: args.slice(args[i]?.text === '--' ? i + 1 : i), chdir } : undefined;
}

/** What one option does: takes the next word as its value, sets edit mode, changes the folder. */
interface Read {
  readonly next: boolean;
  readonly edit: boolean;
  readonly chdir: boolean;
}

/** A bundle of letters (`-e`, `-nu root`, `-uroot`, `-hhost`, `-h host`); `undefined`: a letter sudo does not know. */
function shortRead(text: string, following: WrittenWord | undefined): Read | undefined {
  let edit = false;
  for (let at = 1; at < text.length; at += 1) {
    const letter = text[at]!;
    if (SUDO.valued.includes(letter)) return { next: at === text.length - 1, edit, chdir: letter === 'D' || letter === 'R' };
    // `-h` takes an attached host, or the next word when it is alone and that word no option or setting; else it is help.
    if (letter === 'h') {
      const host = text === '-h' && following !== undefined && !following.text.startsWith('-') && !isSetting(following.text);
      return { next: host, edit, chdir: false };
    }
    if (!NO_VALUE.includes(letter)) return undefined;
    edit ||= letter === 'e';
  }
  return { next: false, edit, chdir: false };
}

/** A long option, in any unique abbreviation (`--edit`, `--ed`, `--user root`, `--chdir=x`); `undefined`: unknown, ambiguous, or `=` where none is taken. */
function longRead(text: string): Read | undefined {
  const at = text.indexOf('=');
  const name = longOptionName(at < 0 ? text.slice(2) : text.slice(2, at), LONG_NAMES);
  if (name === undefined) return undefined;
  const valued = SUDO.long[name] === 'value' || name === 'host';
  if (at >= 0 && !valued && SUDO.long[name] !== 'optional') return undefined;
  return { next: valued && at < 0, edit: name === 'edit', chdir: name === 'chdir' || name === 'chroot' };
}
