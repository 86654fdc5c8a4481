import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { errorMessage } from '../errors/error-message.js';
import { nameable } from './shown-name.js';

// Dot files match; and `s` (dotAll) makes the `.` picomatch writes for `**` match a line
// break too. tinyglobby fixes its own regex flags, so its `**` never matched a folder named
// `a\nb` (nor `\r`, U+2028, U+2029): every file below one was missing from glob and grep,
// and `**/.git/**` did not skip a `.git` below one.
const MATCH_OPTIONS = { dot: true, posix: true, flags: 's' } as const;

/**
 * `pattern` as the walk matches it. Empty and `.` segments are dropped: picomatch throws on
 * `src//a.ts` and matches nothing for `src/./a.ts`, where a user means `src/a.ts`. A pattern
 * ending in a folder (`src/`, `src/*\/`, `.`) names every file below it (`src/**`, `src/*\/**`,
 * `**`): glob and grep answer files, never folders. A negated pattern (`!lib/*`) is kept as
 * it is; the tools refuse it (see {@link userSearchMatcher}).
 *
 * @example
 * ```ts
 * searchGlob('src//a.ts'); // 'src/a.ts'
 * searchGlob('src/*\/'); // 'src/*\/**'
 * ```
 */
export function searchGlob(pattern: string): string {
  const scanned = picomatch.scan(pattern, { parts: true });
  const parts = scanned.parts ?? [pattern];
  if (scanned.negated) return pattern;
  const kept = parts.filter((part) => part !== '' && part !== '.');
  const last = parts.at(-1);
  const endsInFolder = last === undefined || last === '' || last === '.';
  if (kept.length === parts.length && !endsInFolder && scanned.prefix === '') return pattern;
  if (endsInFolder && kept.at(-1) !== '**') kept.push('**');
  return kept.join('/');
}

/** A glob compiled for {@link walkMatching}: the files it matches, and the folders that may hold one. */
export interface SearchMatcher {
  /** Whether a file (relative to the walk's root, `/`-separated) matches. */
  readonly matches: (path: string) => boolean;
  /** Whether the walk goes into a folder (relative to the walk's root): it may hold a match. */
  readonly mayHold: (folder: string) => boolean;
}

/**
 * `pattern` compiled for a walk, read as {@link searchGlob} reads it; it throws what picomatch
 * throws for a pattern it cannot compile. For a pattern of the harness's own: compile one from
 * a user with {@link userSearchMatcher}, which says what is wrong with it instead.
 *
 * @example
 * ```ts
 * searchMatcher('src/*.ts').matches('src/a.ts'); // true
 * ```
 */
export function searchMatcher(pattern: string): SearchMatcher {
  const glob = searchGlob(pattern);
  return { matches: picomatch(glob, MATCH_OPTIONS), mayHold: folderMatcher(glob) };
}

/**
 * A user's `pattern` compiled for a walk (see {@link searchMatcher}), or why it cannot be
 * searched, as an error message starting with `label` (the argument's name, `pattern` or
 * `include`). A negated pattern (`!lib/*`) would mean every file but those; one picomatch cannot
 * compile is named as such, not taken for a folder that cannot be read. `walked` is what the
 * walk matches when it is not `pattern` itself (grep's `include` of a bare name, `**\/<name>`);
 * the messages name `pattern`, as the user wrote it.
 *
 * @example
 * ```ts
 * userSearchMatcher('src/*.ts', 'pattern'); // a SearchMatcher
 * userSearchMatcher('!lib/*', 'pattern'); // 'pattern "!lib/*" starts with "!", ...'
 * ```
 */
export function userSearchMatcher(pattern: string, label: string, walked: string = pattern): SearchMatcher | string {
  if (picomatch.scan(pattern).negated) {
    return (
      `${label} "${pattern}" starts with "!", which would match every file but those it names; ` +
      `name the files to find instead, or leave a folder out with an extglob such as "!(lib)/**" ` +
      `(write "\\!" for a name that starts with "!")`
    );
  }
  try {
    return searchMatcher(walked);
  } catch (error) {
    return `${label} "${pattern}" is not a valid glob: ${errorMessage(error)}`;
  }
}

/**
 * Whether a folder (relative to the walk's root, `/`-separated) may hold a file `pattern`
 * matches, so the walk goes into it: each of its segments matches the pattern's segment at
 * the same depth, until a `**` (which matches any depth) or the folder's end. A segment
 * holding a `/` (a brace such as `{a/b,c}`) cannot be judged by segment: such a folder is walked,
 * and so is every folder for a negated pattern (`!lib/*` matches what lies outside `lib`).
 */
function folderMatcher(pattern: string): (folder: string) => boolean {
  const scanned = picomatch.scan(pattern, { parts: true });
  if (scanned.negated) return () => true;
  const parts = scanned.parts ?? [pattern];
  const matchers = parts.map((part) => picomatch(part, MATCH_OPTIONS));
  return (folder) => {
    const segments = folder.split('/');
    const shared = Math.min(segments.length, parts.length);
    for (let depth = 0; depth < shared; depth++) {
      const part = parts[depth]!;
      if (part.includes('/')) return true;
      if (!matchers[depth]!(segments[depth]!)) return false;
      if (part === '**') return true;
    }
    return segments.length <= parts.length;
  };
}

/**
 * The regular files below `root` (an absolute folder) whose path relative to it `glob`
 * matches (see {@link searchMatcher}) and none of `ignore` (globs matched against files and
 * folders alike), unsorted.
 * A symbolic link is never followed nor returned; a folder that cannot be read is skipped, and
 * so is a file no tool can name (see `nameable`).
 * Once `signal` is aborted no folder is read any more: what was found so far is returned,
 * and the caller, seeing the signal, must not take it for an answer.
 *
 * @example
 * ```ts
 * await walkMatching('/repo', searchMatcher('src/*.ts'), ['**\/node_modules/**'], signal); // ['src/b.ts', 'src/a.ts']
 * ```
 */
export async function walkMatching(root: string, glob: SearchMatcher, ignore: readonly string[], signal: AbortSignal): Promise<string[]> {
  const { matches, mayHold } = glob;
  const ignored = ignore.length === 0 ? () => false : picomatch([...ignore], MATCH_OPTIONS);
  const found: string[] = [];
  const visit = async (folder: string): Promise<void> => {
    if (signal.aborted) return;
    const absolute = folder === '' ? root : join(root, folder);
    let entries: Dirent[];
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch {
      return; // unreadable or gone: skipped, as a search skips what it may not read
    }
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (mayHold(path) && !ignored(path)) below.push(visit(path));
      } else if (entry.isFile() && matches(path) && !ignored(path)) {
        below.push(nameable(absolute, entry.name).then((ok) => void (ok && found.push(path))));
      }
    }
    await Promise.all(below);
  };
  await visit('');
  return found;
}
