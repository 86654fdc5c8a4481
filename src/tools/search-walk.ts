import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { nameable } from './shown-name.js';

// Dot files match; and `s` (dotAll) makes the `.` picomatch writes for `**` match a line
// break too. tinyglobby fixes its own regex flags, so its `**` never matched a folder named
// `a\nb` (nor `\r`, U+2028, U+2029): every file below one was missing from glob and grep,
// and `**/.git/**` did not skip a `.git` below one.
const MATCH_OPTIONS = { dot: true, posix: true, flags: 's' } as const;

/**
 * Whether a folder (relative to the walk's root, `/`-separated) may hold a file `pattern`
 * matches, so the walk goes into it: each of its segments matches the pattern's segment at
 * the same depth, until a `**` (which matches any depth) or the folder's end. A segment
 * holding a `/` (a brace such as `{a/b,c}`) cannot be judged by segment: such a folder is walked.
 */
function folderMatcher(pattern: string): (folder: string) => boolean {
  const parts = picomatch.scan(pattern, { parts: true }).parts ?? [pattern];
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
 * `pattern` and none of `ignore` (globs matched against files and folders alike), unsorted.
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
  const matches = picomatch(pattern, MATCH_OPTIONS);
  const ignored = ignore.length === 0 ? () => false : picomatch([...ignore], MATCH_OPTIONS);
  const mayHold = folderMatcher(pattern);
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
