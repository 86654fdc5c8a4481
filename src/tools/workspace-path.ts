import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Where a path given to a tool really points, judged against the workspace. */
export interface WorkspacePath {
  /** The real absolute path, symlinks resolved (as far as the path exists). */
  readonly absolute: string;
  /** The posix path relative to the workspace (`.` for the root) when inside, else `absolute`. */
  readonly relative: string;
  /** True iff the real path is the workspace or below it. */
  readonly inside: boolean;
}

const MAX_LINKS = 40;

/**
 * Resolves `path` (relative to `workspace`, or absolute) to where it really is: `..` is
 * normalised and symlinks are followed through the longest existing prefix, so a file that
 * does not exist yet under a symlinked folder is judged by where that folder really is, and
 * a dangling symlink by where it points.
 *
 * @example
 * ```ts
 * const target = await resolveWorkspacePath('/repo', 'src/../README.md');
 * // { absolute: '/repo/README.md', relative: 'README.md', inside: true }
 * (await resolveWorkspacePath('/repo', '../etc/passwd')).inside; // false
 * ```
 */
export async function resolveWorkspacePath(workspace: string, path: string): Promise<WorkspacePath> {
  const root = await realpathLoose(resolve(workspace), 0);
  const absolute = await realpathLoose(resolve(root, path), 0);
  const rel = relative(root, absolute);
  const inside = rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  return {
    absolute,
    relative: inside ? (rel === '' ? '.' : rel.split(sep).join('/')) : absolute,
    inside,
  };
}

/**
 * `realpath` that also works for paths that do not exist (yet): the missing tail is kept
 * as written under the real path of its parent, except that a dangling symlink is followed
 * to where it would create its target.
 */
async function realpathLoose(path: string, links: number): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    const candidate = join(await realpathLoose(parent, links), basename(path));
    const target = await danglingTarget(candidate);
    if (target === undefined || links >= MAX_LINKS) return candidate;
    return realpathLoose(resolve(dirname(candidate), target), links + 1);
  }
}

async function danglingTarget(path: string): Promise<string | undefined> {
  try {
    const stats = await lstat(path);
    return stats.isSymbolicLink() ? await readlink(path) : undefined;
  } catch {
    return undefined;
  }
}
