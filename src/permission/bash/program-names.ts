/**
 * The other names some programs the checks read specially are installed under: GNU's programs
 * as BSD systems and Homebrew name them (`gsed`, `gfind`, `gxargs`, `grm`, `gtar`, `gmake`...),
 * and awk's implementations (`gawk`, `mawk`, `nawk`). One map, read once where a command's
 * name is worked out (`commandBase`), so that no check reads a name another misses.
 *
 * @module
 */
import { foldCase } from '../fold-case.js';
import { basename } from './shell-words.js';

/** Homebrew's coreutils, findutils, sed, tar and make install GNU's programs with a `g` in front. */
const GNU = [
  'sed', 'find', 'xargs', 'env', 'nice', 'nohup', 'stdbuf', 'timeout', 'chroot', 'rm', 'cp', 'mv', 'ln', 'install', 'dd', 'tee',
  'sort', 'uniq', 'split', 'csplit', 'truncate', 'shred', 'touch', 'mkdir', 'chmod', 'chown', 'tar', 'make',
];

const OTHER_NAMES: ReadonlyMap<string, string> = new Map([
  ...GNU.map((name): [string, string] => [`g${name}`, name]),
  ['gawk', 'awk'],
  ['mawk', 'awk'],
  ['nawk', 'awk'],
]);

/**
 * The name the checks know `base` (a program's name without its folder) by: `sed` for `gsed`,
 * `rm` for `grm`, `awk` for `mawk`; any other name as it is.
 *
 * @example
 * ```ts
 * programKind('gsed'); // 'sed'
 * programKind('mawk'); // 'awk'
 * programKind('rm'); // 'rm'
 * ```
 */
export function programKind(base: string): string {
  return OTHER_NAMES.get(base) ?? base;
}

/**
 * The name the checks know the program `name` (as written, maybe with a folder) by: without its
 * folder, folded as a disk that ignores case finds it (see `foldCase`), and as {@link programKind} gives it.
 *
 * @example
 * ```ts
 * commandBase('/opt/homebrew/bin/gxargs'); // 'xargs'
 * commandBase('GRM'); // 'rm'
 * ```
 */
export function commandBase(name: string): string {
  return programKind(shownName(name));
}

/**
 * The name reasons quote for the program `name` (as written, maybe with a folder): without its
 * folder and folded as {@link commandBase} folds it, but not read as another (`gxargs` stays
 * `gxargs`), so that a reason names the program the line wrote, not the one the checks took it for.
 *
 * @example
 * ```ts
 * shownName('/opt/homebrew/bin/gxargs'); // 'gxargs'
 * shownName('GRM'); // 'grm'
 * ```
 */
export function shownName(name: string): string {
  return foldCase(basename(name));
}
