/**
 * Checks that a glob stays below the folder it is searched from: no absolute patterns and
 * no `..` segments (tinyglobby would otherwise happily crawl the parent folders); and that
 * it is cheap to match: at most 2 wildcards of variable width in a path segment, 4 in all.
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
  if (glob.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(glob)) {
    return `${label} must be relative ("${glob}" is absolute); put the folder in "path" instead`;
  }
  if (glob.split(/[\\/]/).includes('..')) {
    return `${label} must not contain ".." ("${glob}"); put the folder in "path" instead`;
  }
  return wildcardProblem(glob, label);
}

/**
 * Wildcards of variable width a glob may hold in one path segment and in all. picomatch
 * turns a glob into a backtracking regex, run on the main thread for every file a search
 * walks (a regex cannot be stopped, not even by the tool's timeout): `*a*a*b` against a
 * 255-character name takes ~60 ms, `*a*a*a*b` ~2 s, each more `*` ~50 times longer. Two per
 * segment and four in all keep the worst name measured (255 characters, or paths 15 folders
 * of 255 characters deep) at ~16 ms, and allow the usual `**` + `*.ts` shapes
 * (`src/**` + `/*.test.ts`, `**` + `/test/**` + `/*.spec.*`).
 */
const MAX_WILDCARDS_PER_SEGMENT = 2;
const MAX_WILDCARDS = 4;
/** A run of `*` (`**` is one) or an extglob group (`*(a)`, `+(a)`, `@(a|b)`...); `?` and `[...]` match one character and cost nothing. */
const WILDCARD = /[*+?@!]\(|\*+/g;

function wildcardProblem(glob: string, label: string): string | undefined {
  const counts = glob.split('/').map((segment) => segment.match(WILDCARD)?.length ?? 0);
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (Math.max(...counts) <= MAX_WILDCARDS_PER_SEGMENT && total <= MAX_WILDCARDS) return undefined;
  return (
    `${label} "${glob}" has too many wildcards: at most ${MAX_WILDCARDS_PER_SEGMENT} "*" (or "**", "*(...)") between two "/" ` +
    `and ${MAX_WILDCARDS} in all, since matching more against long file names can take minutes. ` +
    'Use a simpler glob (e.g. "**/*name*") and narrow the results with "path" or grep.'
  );
}
