/**
 * The one fold of letter case the permission layer compares names in, where a file system
 * that ignores case would take two spellings for one file: the default rules' any-case asks
 * (`rule-matches`), the bash checks of files other programs run (`bash/writes/executed-writes`,
 * `bash/runs/run-files`, `bash/glob-match`, `linked-executed`, `linked-runs`), and the names of
 * the programs a bash line runs (`bash/simple-command`: `MAKE` finds make on such a system). The
 * checks never ask the disk: they assume it may ignore case. A module of its own so the bash
 * checks, which `rule-matches` imports, can use it without an import cycle.
 *
 * @module
 */

/**
 * `text` in one letter case, as a file system that ignores case sees it. Upper-casing first
 * maps what `toLowerCase` leaves alone but such a system folds: `ſ` (long s) is `S`, so
 * `.rxharneſſ` is `.rxharness` on Windows and macOS. It folds a little more than some systems
 * do (`ı` to `i`, `ß` to `ss`), which only makes a case-free check, which only ever asks or
 * refuses, ask more; `İ` becomes `i̇` (with a combining dot), which neither takes for `i`.
 *
 * @example
 * ```ts
 * foldCase('.rxharne\u017F\u017F'); // '.rxharness'
 * foldCase('.NPMRC'); // '.npmrc'
 * ```
 */
export function foldCase(text: string): string {
  return text.toUpperCase().toLowerCase();
}
