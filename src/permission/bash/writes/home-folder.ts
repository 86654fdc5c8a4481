/**
 * git's global configuration as the line leaves `$HOME`: `git config --global` writes
 * `$HOME/.gitconfig`, so `HOME=src git config --global a.b c`, `export HOME=src` (or `HOME=src`,
 * `read HOME`) before it, writes `src/.gitconfig`. Where the line sets no HOME it is the user's
 * own file, outside what the write rules judge, as before.
 *
 * @module
 */
import type { CommandWrites, JoinedWrite, WrittenWord } from './written-words.js';

/** A setting of HOME as the line records it (`HOME=src`; `HOME` alone when its value is not shown: `read HOME`). */
const SETS_HOME = /^HOME(?:(\+?=)(.*))?$/s;
/** A folder the line does not show: any path, as `"$HOME/x"` is. */
const UNKNOWN: WrittenWord = Object.freeze({ text: '$HOME', glob: false });
/** `git config` words that only read it. */
const READS = /^(?:--get(?:-all|-regexp|-urlmatch|-color(?:bool)?)?|--list|-l|get|list)$/;

/**
 * The write of `git config --global` with `args` (git's arguments) to `$HOME/.gitconfig`, HOME
 * read from `assignments` in front of it, else marked (`home`) to be read from the line's
 * settings (see {@link withHomeFolder}); `undefined` when it writes no global configuration.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * globalConfigWrite([w('config'), w('--global'), w('a.b'), w('c')], ['HOME=src'])?.dir.text; // 'src'
 * ```
 */
export function globalConfigWrite(args: readonly WrittenWord[], assignments: readonly string[]): JoinedWrite | undefined {
  const words = args.map((a) => a.text);
  if (!words.includes('config') || !words.includes('--global') || words.some((w) => READS.test(w))) return undefined;
  const front = homeFolder(assignments);
  const name: WrittenWord = { text: '.gitconfig', glob: false };
  return front === undefined ? { dir: UNKNOWN, name, tree: false, home: true } : { dir: front, name, tree: false };
}

/** The folder the last setting of HOME among `settings` (each `NAME=value`, in order) leaves, or `undefined` when none sets it. */
function homeFolder(settings: readonly string[]): WrittenWord | undefined {
  const found = settings.map((s) => SETS_HOME.exec(s)).findLast((m): m is RegExpExecArray => m !== null);
  if (found === undefined) return undefined;
  return found[1] === '=' && found[2] !== '' ? { text: found[2]!, glob: false } : UNKNOWN;
}

/**
 * `writes` with each `home` write's folder read from `settings`, the variables the line set
 * before it (see {@link globalConfigWrite}); dropped where the line sets no HOME.
 */
export function withHomeFolder(writes: CommandWrites, settings: readonly string[]): CommandWrites {
  if (!writes.joined.some((j) => j.home === true)) return writes;
  const set = homeFolder(settings);
  return { ...writes, joined: writes.joined.flatMap(({ home, ...j }) => (home !== true ? [j] : set === undefined ? [] : [{ ...j, dir: set }])) };
}
