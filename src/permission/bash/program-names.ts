/**
 * The other names some programs the checks read specially are installed under: GNU sed and
 * find as BSD systems and Homebrew name them (`gsed`, `gfind`), and awk's implementations
 * (`gawk`, `mawk`, `nawk`). One map, so that each check of sed, find or awk asks for the
 * program by one name and no name is read in one check and missed in another.
 *
 * @module
 */

const OTHER_NAMES: ReadonlyMap<string, string> = new Map([
  ['gsed', 'sed'],
  ['gfind', 'find'],
  ['gawk', 'awk'],
  ['mawk', 'awk'],
  ['nawk', 'awk'],
]);

/**
 * The name the checks know `base` (a program's name without its folder) by: `sed` for `gsed`,
 * `find` for `gfind`, `awk` for `gawk`; any other name as it is.
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
