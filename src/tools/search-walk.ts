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
 * it is; the tools refuse it (see {@link searchGlobProblem}).
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

/**
 * Why `pattern` cannot be searched, as an error message starting with `label` (the
 * argument's name, `pattern` or `include`), or `undefined`. A negated pattern (`!lib/*`)
 * would mean every file but those; one picomatch cannot compile is named as such, not
 * taken for a folder that cannot be read.
 *
 * @example
 * ```ts
 * searchGlobProblem('src/*.ts', 'pattern'); // undefined
 * searchGlobProblem('!lib/*', 'pattern'); // 'pattern "!lib/*" starts with "!", ...'
 * ```
 */
export function searchGlobProblem(pattern: string, label: string): string | undefined {
  if (picomatch.scan(pattern).negated) {
    return (
      `${label} "${pattern}" starts with "!", which would match every file but those it names; ` +
      `name the files to find instead, or leave a folder out with an extglob such as "!(lib)/**" ` +
      `(write "\\!" for a name that starts with "!")`
    );
  }
  try {
    compile(pattern);
    return undefined;
  } catch (error) {
    return `${label} "${pattern}" is not a valid glob: ${errorMessage(error)}`;
  }
}

/** The matchers of a walk for `pattern`: its files, and the folders that may hold one. */
function compile(pattern: string): { matches: (path: string) => boolean; mayHold: (folder: string) => boolean } {
  const glob = searchGlob(pattern);
  return { matches: picomatch(glob, MATCH_OPTIONS), mayHold: folderMatcher(glob) };
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
 * The regular files below `root` (an absolute folder) whose path relative to it matches
 * `pattern` (read as {@link searchGlob} reads it) and none of `ignore` (globs matched
 * against files and folders alike), unsorted. It throws what picomatch throws for a pattern
 * it cannot compile: check one from a user with {@link searchGlobProblem} first.
 * A symbolic link is never followed nor returned; a folder that cannot be read is skipped, and
 * so is a file no tool can name (see `nameable`).
 * Once `signal` is aborted no folder is read any more: what was found so far is returned,
 * and the caller, seeing the signal, must not take it for an answer.
 *
 * @example
 * ```ts
 * await walkMatching('/repo', 'src/*.ts', ['**\/node_modules/**'], signal); // ['src/b.ts', 'src/a.ts']
 * ```
 */
export async function walkMatching(root: string, pattern: string, ignore: readonly string[], signal: AbortSignal): Promise<string[]> {
  const { matches, mayHold } = compile(pattern);
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
