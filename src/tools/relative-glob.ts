import { isAbsolute } from 'node:path';
import { globCostProblem } from '../validation/glob-cost.js';
import { searchGlobProblem } from './search-walk.js';

/**
 * Checks that a glob stays below the folder it is searched from: no absolute patterns and
 * no `..` segments (a search would otherwise reach into the parent folders); and that
 * it is cheap to match (see `globCostProblem`): at most 2 wildcards of variable width in a
 * path segment, 4 in all, no regex groups or repeated groups, at most 32 alternatives; and
 * that it can be searched (see `searchGlobProblem`): not negated (`!lib/*`), and compiled by picomatch.
 *
 * @returns an error message naming the problem, or `undefined` when the glob is fine.
 *
 * @example
 * ```ts
 * relativeGlobProblem('src/*.ts', 'pattern'); // undefined
 * relativeGlobProblem('../**', 'pattern'); // 'pattern must not contain ".." ...'
 * ```
 */
export function relativeGlobProblem(glob: string, label: string): string | undefined {
  // This system's absolute form only: on Linux `C:/*.txt` searches a folder named `C:`.
  if (isAbsolute(glob)) {
    return `${label} must be relative ("${glob}" is absolute); put the folder in "path" instead`;
  }
  if (glob.split(/[\\/]/).includes('..')) {
    return `${label} must not contain ".." ("${glob}"); put the folder in "path" instead`;
  }
  return globCostProblem(glob, label) ?? searchGlobProblem(glob, label);
}
