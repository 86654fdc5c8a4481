import { glob } from 'tinyglobby';

/** Folders no search wanders into. */
export const SEARCH_IGNORE: readonly string[] = Object.freeze(['**/node_modules/**', '**/.git/**']);

/**
 * Files under `root` (an absolute folder) matching `pattern`, relative to `root`, sorted.
 * Dot files are included; `node_modules` and `.git` are skipped; symbolic links are not
 * followed, so a search never leaves the folder through a link.
 *
 * @example
 * ```ts
 * await findSearchFiles('/repo', 'src/*.ts', signal); // ['src/a.ts', 'src/b.ts']
 * ```
 */
export async function findSearchFiles(root: string, pattern: string, signal: AbortSignal): Promise<string[]> {
  const found = await glob(pattern, {
    cwd: root,
    dot: true,
    ignore: [...SEARCH_IGNORE],
    followSymbolicLinks: false,
    expandDirectories: false,
    signal,
  });
  return found.sort();
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
