import { isAbsolute } from 'node:path';
import { globCostProblem } from '../validation/glob-cost.js';
import { userSearchMatcher, type SearchMatcher } from './search-walk.js';

/**
 * Checks that a glob stays below the folder it is searched from: no absolute patterns and
 * no `..` segments (a search would otherwise reach into the parent folders); and that
 * it is cheap to match (see `globCostProblem`): at most 2 wildcards of variable width in a
 * path segment, 4 in all, no regex groups or repeated groups, at most 32 alternatives.
 * Whether it can be searched is for {@link relativeSearchMatcher}, which compiles it.
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
  return globCostProblem(glob, label);
}

/**
 * A user's glob compiled once for the search (see `userSearchMatcher`), or an error message
 * naming its problem: one of {@link relativeGlobProblem}'s, a negated glob (`!lib/*`), or one
 * picomatch cannot compile. `walked` is what the walk matches when it is not `glob` itself
 * (grep's `include` of a bare name is matched at any depth); the messages name `glob`.
 *
 * @example
 * ```ts
 * relativeSearchMatcher('src/*.ts', 'pattern'); // a SearchMatcher
 * relativeSearchMatcher('../**', 'pattern'); // 'pattern must not contain ".." ...'
 * ```
 */
export function relativeSearchMatcher(glob: string, label: string, walked: string = glob): SearchMatcher | string {
  return relativeGlobProblem(glob, label) ?? userSearchMatcher(glob, label, walked);
}
