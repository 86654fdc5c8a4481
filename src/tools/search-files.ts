import { realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { walkMatching, type SearchMatcher } from './search-walk.js';

/** `name` as a glob matching it in any letter case (`.[gG][iI][tT]`), as a file system that ignores case finds it. */
function anyCase(name: string): string {
  return name.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}

/** A folder no search wanders into: its path as the model reads it, and whether it is matched in any letter case. */
interface SkippedFolder {
  readonly name: string;
  readonly anyCase: boolean;
}

const SKIPPED: readonly SkippedFolder[] = [
  { name: 'node_modules', anyCase: false },
  { name: '.git', anyCase: false },
  // `FileSessionStore`'s folder (every conversation's transcript, grants and task records),
  // in any letter case as the default asks match it.
  { name: '.rxharness/sessions', anyCase: true },
];

/**
 * The folders no search wanders into, at any depth, as the tool descriptions name them:
 * `node_modules`, `.git`, and `.rxharness/sessions`, whose transcripts would show one
 * conversation what was read (or approved) in another, and every grep its own conversation.
 * The rest of `.rxharness/` (agent and skill definitions) is searched.
 */
export const SEARCH_SKIPPED_FOLDERS: readonly string[] = Object.freeze(SKIPPED.map((folder) => folder.name));

/** {@link SEARCH_SKIPPED_FOLDERS} as the globs a walk ignores. */
export const SEARCH_IGNORE: readonly string[] = Object.freeze(SKIPPED.map((folder) => `**/${folder.anyCase ? anyCase(folder.name) : folder.name}/**`));

/**
 * {@link SEARCH_SKIPPED_FOLDERS} as words for a tool description the model reads.
 *
 * @example
 * ```ts
 * skippedFoldersText(); // 'node_modules, .git and .rxharness/sessions'
 * ```
 */
export function skippedFoldersText(): string {
  const names = [...SEARCH_SKIPPED_FOLDERS];
  const last = names.pop();
  return names.length === 0 ? (last ?? '') : `${names.join(', ')} and ${last}`;
}

/** {@link SEARCH_IGNORE} for a walk from `root`: from a `.rxharness` folder itself, its `sessions/` too. */
function ignoredUnder(root: string): string[] {
  return basename(root).toLowerCase() === '.rxharness' ? [...SEARCH_IGNORE, `${anyCase('sessions')}/**`] : [...SEARCH_IGNORE];
}

/**
 * Files under `root` (an absolute real folder) `glob` matches (see `searchMatcher`), relative to `root`,
 * sorted. Dot files are included; {@link SEARCH_IGNORE} is skipped. Symbolic links are
 * never followed, not even when the pattern names one (`dl/*` with `dl` a link): a file is
 * only returned when no link lies between `root` and it and it is no link itself, so its
 * path as returned is its real path and a search never leaves the folder through a link.
 *
 * @example
 * ```ts
 * await findSearchFiles('/repo', searchMatcher('src/*.ts'), signal); // ['src/a.ts', 'src/b.ts']
 * ```
 */
export async function findSearchFiles(root: string, glob: SearchMatcher, signal: AbortSignal): Promise<string[]> {
  const found = await walkMatching(root, glob, ignoredUnder(root), signal);
  return (await withoutLinks(root, found)).sort();
}

/**
 * Keeps the files reached without a symbolic link. The walk never goes into a link, but a
 * folder it saw may be swapped for one before it is read, and reading `a/b` then follows
 * the link `a`. So the real path of each result's folder (one `realpath` per folder, shared
 * by its files) must be that folder itself. The files themselves are not checked here: the
 * walk already skips links, and whoever reads one opens it without following a link (see
 * `readTextAt`).
 */
async function withoutLinks(root: string, files: readonly string[]): Promise<string[]> {
  const folders = new Map<string, Promise<boolean>>();
  const folderOf = (file: string): string => file.slice(0, Math.max(0, file.lastIndexOf('/')));
  for (const file of files) {
    const folder = folderOf(file);
    if (folders.has(folder)) continue;
    const lexical = folder === '' ? root : join(root, folder);
    folders.set(folder, realpath(lexical).then((real) => real === lexical, () => false));
  }
  const real = new Map<string, boolean>();
  await Promise.all([...folders].map(async ([folder, known]) => real.set(folder, await known)));
  return files.filter((file) => real.get(folderOf(file)));
}

/**
 * Joins a found file to its search root as shown to the model: posix and relative to the
 * workspace (or absolute when the root is outside it).
 *
 * @example
 * ```ts
 * joinRelative('.', 'a.ts'); // 'a.ts'
 * joinRelative('src', 'a.ts'); // 'src/a.ts'
 * ```
 */
export function joinRelative(root: string, file: string): string {
  if (root === '.') return file;
  return root.endsWith('/') ? root + file : `${root}/${file}`;
}
