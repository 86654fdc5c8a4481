import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';
import { RxHarnessError } from '../errors/rxharness-error.js';
import { clipMiddle } from '../text/clip-middle.js';

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

/** The longest path Linux takes (PATH_MAX), in bytes: no file has a longer one. */
const PATH_MAX = 4096;
/** The longest name of one part of a path (NAME_MAX), in bytes. */
const NAME_MAX = 255;

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
 *
 * @throws RxHarnessError when `path` is longer than {@link PATH_MAX} bytes: no file has such a
 *   path, and resolving it part by part took minutes (a model's 120 KB "path").
 */
export async function resolveWorkspacePath(workspace: string, path: string): Promise<WorkspacePath> {
  const bytes = Buffer.byteLength(path, 'utf8');
  if (bytes > PATH_MAX) {
    throw new RxHarnessError(
      `the path "${clipMiddle(path, 120)}" is ${bytes} bytes long, more than the ${PATH_MAX} bytes a path may have, so no file has it; give a shorter path`,
    );
  }
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
  } catch (error) {
    // Too long for the system (with the workspace in front, or one part over NAME_MAX): walking
    // up one part at a time would fail the same way for every part, a realpath each.
    if (errnoOf(error) === 'ENAMETOOLONG') return tooLong(path, links);
    const parent = dirname(path);
    if (parent === path) return path;
    const candidate = join(await realpathLoose(parent, links), basename(path));
    const target = await danglingTarget(candidate);
    if (target === undefined || links >= MAX_LINKS) return candidate;
    return realpathLoose(resolve(dirname(candidate), target), links + 1);
  }
}

/**
 * Where a path the system refuses as too long leads: nothing exists at or below a part over
 * NAME_MAX, so the path before that part is resolved and the rest kept as written; a path
 * too long as a whole is kept as written (nothing can be opened at it).
 */
async function tooLong(path: string, links: number): Promise<string> {
  const parts = path.split(sep);
  const long = parts.findIndex((part) => Buffer.byteLength(part, 'utf8') > NAME_MAX);
  if (long <= 0) return path;
  const before = parts.slice(0, long).join(sep) || sep;
  return join(await realpathLoose(before, links), ...parts.slice(long));
}

async function danglingTarget(path: string): Promise<string | undefined> {
  try {
    const stats = await lstat(path);
    return stats.isSymbolicLink() ? await readlink(path) : undefined;
  } catch {
    return undefined;
  }
}
