/**
 * git's global configuration as the line leaves `$HOME` and `$XDG_CONFIG_HOME`: `git config
 * --global` writes `$HOME/.gitconfig`, or, where that file is missing and the other one is there,
 * `$XDG_CONFIG_HOME/git/config` (`$HOME/.config/git/config` when XDG_CONFIG_HOME is unset). So
 * `HOME=src git config --global a.b c`, `export XDG_CONFIG_HOME=src` (or `read HOME`) before it,
 * writes under `src/`; a value known only at run time (`HOME=$d`) may be any folder. Where the
 * line sets neither it is the user's own file, outside what the write rules judge, as before.
 *
 * @module
 */
import { runTimeName } from '../run-time-names.js';
import type { CommandWrites, JoinedWrite, WrittenWord } from './written-words.js';

/** The variables that move git's global configuration (see the module). */
type ConfigHome = NonNullable<JoinedWrite['home']>;
/** A setting of either as the line records it (`HOME=src`; `HOME` alone when its value is not shown: `read HOME`). */
const SETS = /^(HOME|XDG_CONFIG_HOME)(?:(\+?=)(.*))?$/s;
/** `git config` options that only read it. */
const READS = /^(?:--get(?:-all|-regexp|-urlmatch|-color(?:bool)?)?|--list|-l)$/;
/** git 2.46's read subcommands, which only count as the word right after `config`. */
const READ_SUBCOMMANDS = /^(?:get|list)$/;
/**
 * `git config` options that never take the next word as their value, or carry it (`--type=bool`):
 * any other word before a read option may be an operand or a value (`--default --list`), so the
 * read is not trusted past it.
 */
const FLAGS = /^(?:--(?:system|local|worktree|includes|no-includes|show-origin|show-scope|name-only|null|bool|int|bool-or-int|bool-or-str|path|expiry-date|fixed-value)|-z|--[a-z-]+=.*)$/s;
/** The file named `config` git's global configuration may be, under the folder each variable gives. */
const XDG_FOLDER: Readonly<Record<ConfigHome, string>> = { HOME: '/.config/git', XDG_CONFIG_HOME: '/git' };

/**
 * The writes of `git config --global` with `args` (git's arguments), each folder read from the
 * `assignments` in front of it, else marked (`home`) to be read from the line's settings (see
 * {@link withHomeFolder}); none when it writes no global configuration.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * globalConfigWrites([w('config'), w('--global'), w('a.b'), w('c')], ['HOME=src']).map((j) => j.dir.text); // ['src', 'src/.config/git', '$XDG_CONFIG_HOME/git']
 * ```
 */
export function globalConfigWrites(args: readonly WrittenWord[], assignments: readonly string[]): JoinedWrite[] {
  const words = args.map((a) => a.text);
  if (!words.includes('config') || !words.some(isGlobal) || readsOnly(words.slice(words.indexOf('config') + 1))) return [];
  const dotfile = configWrite('HOME', '', '.gitconfig', assignments);
  const xdg = configWrite('XDG_CONFIG_HOME', XDG_FOLDER.XDG_CONFIG_HOME, 'config', assignments);
  // XDG_CONFIG_HOME set in front decides the second file; else HOME gives it, unless the line sets XDG_CONFIG_HOME.
  if (xdg.home === undefined) return [dotfile, xdg];
  return [dotfile, configWrite('HOME', XDG_FOLDER.HOME, 'config', assignments), xdg];
}

/** `--global` or an abbreviation git takes for it (`--glob`): it accepts any unambiguous prefix, and `--g` is not one. */
function isGlobal(word: string): boolean {
  return word.length >= 4 && '--global'.startsWith(word);
}

/**
 * Whether `git config`'s arguments (`rest`, after `config`) only read: a read subcommand first, or
 * a read option before any word that is not a known flag. A read word later on may be a key's
 * value (`--global k.v list` sets `k.v` to `list`), so it does not count.
 */
function readsOnly(rest: readonly string[]): boolean {
  if (rest.length > 0 && READ_SUBCOMMANDS.test(rest[0]!)) return true;
  for (const word of rest) {
    if (READS.test(word)) return true;
    if (!isGlobal(word) && !FLAGS.test(word)) return false;
  }
  return false;
}

/** The write of `name` in `sub` under the folder `variable` gives: from `assignments`, else marked to be read from the line. */
function configWrite(variable: ConfigHome, sub: string, name: string, assignments: readonly string[]): JoinedWrite {
  const front = folderSet(variable, assignments);
  const file: WrittenWord = { text: name, glob: false };
  return front === undefined ? { dir: { text: `$${variable}${sub}`, glob: false }, name: file, tree: false, home: variable } : { dir: { text: `${front}${sub}`, glob: false }, name: file, tree: false };
}

/**
 * The folder the last setting of `variable` among `settings` (each `NAME=value`, in order) leaves,
 * `$NAME` when its value is not shown, or `undefined` when none sets it. A name only known when the
 * line runs (`export $v=src`, `read "$v"`, see `runTimeName`) may be this one, with any value.
 */
function folderSet(variable: ConfigHome, settings: readonly string[]): string | undefined {
  const found = settings.findLast((s) => runTimeName(s) || SETS.exec(s)?.[1] === variable);
  if (found === undefined) return undefined;
  const set = SETS.exec(found);
  // `HOME+=x` appends to a value the line does not show: any folder, as `read HOME` gives.
  return set !== null && set[2] === '=' && set[3] !== '' ? set[3]! : `$${variable}`;
}

/**
 * `writes` with each `home` write's folder read from `settings`, the variables the line set
 * before it (see {@link globalConfigWrites}); dropped where the line sets no such variable.
 */
export function withHomeFolder(writes: CommandWrites, settings: readonly string[]): CommandWrites {
  if (!writes.joined.some((j) => j.home !== undefined)) return writes;
  const joined = writes.joined.flatMap(({ home, ...j }) => {
    if (home === undefined) return [j];
    const set = folderSet(home, settings);
    return set === undefined ? [] : [{ ...j, dir: { ...j.dir, text: `${set}${j.dir.text.slice(home.length + 1)}` } }];
  });
  return { ...writes, joined };
}
