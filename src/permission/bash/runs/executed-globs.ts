/**
 * Whether a glob the shell expands (`cp *.txt backup/`, `echo x > .gi?/config`) may name a
 * file other programs run. Read as bash reads it: `*`, `?` and `[...]` never cross `/`, and a
 * name starting with `.` is only matched by a segment starting with a literal `.` (`*` and `?`
 * in front never match it; POSIX leaves a leading `[.]` open, so in doubt that one may).
 * Every such file's name starts with `.`, so `src/*.ts` or `dist/*` cannot reach one.
 * (`shopt -s dotglob` and `GLOBIGNORE` change that: the checker flags both.)
 *
 * @module
 */

import { globMatcher } from '../glob-match.js';

/**
 * Whether `glob` may expand to a path inside one of `folders` or to one of `files`, at any depth.
 *
 * @example
 * ```ts
 * mayGlobExecuted('.gi?/config', ['.git'], ['.npmrc']); // true
 * mayGlobExecuted('dist/*', ['.git'], ['.npmrc']); // false
 * ```
 */
export function mayGlobExecuted(glob: string, folders: readonly string[], files: readonly string[]): boolean {
  const segments = glob.split('/');
  return segments.some((segment, at) => {
    if (!mayMatchDotName(segment)) return false;
    const matches = segmentMatcher(segment);
    // A folder anywhere on the path; a file only as its last part (`.npmrc/x` cannot be written).
    return folders.some(matches) || (at === segments.length - 1 && files.some(matches));
  });
}

/** A segment starting with `*` or `?` never matches a name starting with `.`; neither does an empty one. */
function mayMatchDotName(segment: string): boolean {
  return segment !== '' && segment[0] !== '*' && segment[0] !== '?';
}

/** A test of one path segment, as a glob, against a name (in any letter case: some file systems ignore it). */
function segmentMatcher(segment: string): (name: string) => boolean {
  const matcher = globMatcher(segment, { caseless: true });
  return (name) => matcher.test(name);
}
