/**
 * The existing paths a written word that is not plain text may name, so the links among them
 * are followed: a glob (`front*` / `[f]rontend` / `note?.md`) is matched against the names on
 * disk, as bash expands it; a part known only when the line runs (`$x`, `$(…)`, `{a,b}`, `~+`)
 * matches any name there, and when it may hold a whole path (`$PWD/frontend/a.ts`) what
 * follows it is also read from the workspace and from each folder named after it. The listing
 * counts against the walker's bound; past it the answer is `undefined` (judged as any path).
 *
 * @module
 */
import { posix } from 'node:path';
import { globMatcher, type GlobMatcher } from './bash/glob-match.js';
import type { LinkWalker } from './link-walker.js';

/** A part known only when the line runs: a substitution (the scanner writes `$(…)`), a brace list, a backquote. */
const RUN_TIME = /\$|…|`|\{[^{}]*(?:,|\.\.)[^{}]*\}/;
/** Matches kept per word: a glob naming more paths than this is judged as any path. */
const MAX_MATCHES = 256;

/**
 * Paths (relative to the workspace, or absolute) `written` may name now, or `undefined` when
 * they cannot all be listed within the bounds.
 *
 * @example
 * ```ts
 * // with frontend -> src in the workspace
 * globbedPaths('front*' + '/a.ts', walker); // ['frontend/a.ts']
 * globbedPaths('$PWD/frontend/a.ts', walker); // ['frontend/a.ts', ...]
 * ```
 */
export function globbedPaths(written: string, walker: LinkWalker): string[] | undefined {
  const segments = written.split('/');
  const absolute = written.startsWith('/');
  const last = lastIndex(segments, (s, i) => RUN_TIME.test(s) || (i === 0 && s.startsWith('~')));
  const starts = [{ at: 0, absolute }];
  // A part that may hold `/` (`$PWD`, `$(pwd)`): what follows may start anywhere, the workspace too.
  if (last >= 0) for (let at = last; at < segments.length; at++) starts.push({ at, absolute: false });
  const found = new Set<string>();
  for (const start of starts) {
    const rest = segments.slice(start.at).filter((s) => s !== '' && s !== '.');
    const matches = expand(start.absolute ? '/' : '', rest, walker);
    if (matches === undefined) return undefined;
    for (const match of matches) found.add(match);
    if (found.size > MAX_MATCHES) return undefined;
  }
  return [...found];
}

/**
 * Every path below `base` the names `rest` (globs among them) match now, that may pass a link:
 * a plain file or folder reached without one is where the text shows it, judged so already.
 */
function expand(base: string, rest: readonly string[], walker: LinkWalker): string[] | undefined {
  let paths = [{ path: base, linked: false }];
  for (const [i, segment] of rest.entries()) {
    const pattern = segmentPattern(segment, i === 0 && base === '');
    const more = i < rest.length - 1;
    const next: { path: string; linked: boolean }[] = [];
    for (const { path, linked } of paths) {
      const join = (name: string): string => (path === '' ? name : posix.join(path, name));
      if (pattern === undefined) {
        // A literal name may be a link too: the walker looks at it (a name not there yet is none).
        const found = linked ? undefined : walker.resolve(join(segment));
        next.push({ path: join(segment), linked: linked || found?.kind !== 'real' || found.linked });
        continue;
      }
      const names = walker.list(path === '' ? walker.workspace : posix.resolve(walker.workspace, path));
      if (names === undefined) return undefined;
      for (const entry of names) {
        if (!pattern.test(entry.name) || !(linked || entry.link || (more && entry.dir))) continue;
        next.push({ path: join(entry.name), linked: linked || entry.link });
      }
      if (next.length > MAX_MATCHES) return undefined;
    }
    paths = next;
  }
  return paths.map((p) => p.path).filter((path) => path !== '' && path !== '/');
}

/** A matcher of one name against a segment (a glob), or `undefined` when it is plain text. */
function segmentPattern(segment: string, first: boolean): GlobMatcher | undefined {
  if (first && segment.startsWith('~')) return { test: () => true };
  if (!/[*?[\\]/.test(segment) && !RUN_TIME.test(segment)) return undefined;
  return globMatcher(segment, { runTime: true });
}

function lastIndex(segments: readonly string[], test: (segment: string, index: number) => boolean): number {
  for (let i = segments.length - 1; i >= 0; i--) if (test(segments[i]!, i)) return i;
  return -1;
}
