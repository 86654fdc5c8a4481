import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
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
 *
 * The longest prefix `realpath` takes is found by a binary search: asking one part at a
 * time made a 4 KB path of missing folders cost thousands of calls (seconds). The prefixes
 * it takes (or refuses as too long) run unbroken from the root, since `realpath` walks a path
 * in order and stops at its first bad part, which every longer prefix holds too.
 */
async function realpathLoose(path: string, links: number): Promise<string> {
  const root = parse(path).root;
  const rest = path.slice(root.length);
  const parts = rest === '' ? [] : rest.split(sep);
  const prefix = (count: number): string => root + parts.slice(0, count).join(sep);
  let known = parts.length;
  let found = await probe(path);
  if (found === undefined) {
    // The root resolves (and nothing is above it to try); the answer is in [low, high].
    let low = 0;
    let high = parts.length - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      const probed = await probe(prefix(mid));
      if (probed === undefined) high = mid - 1;
      else [low, found] = [mid, probed];
    }
    known = low;
    found ??= (await probe(root)) ?? { real: root };
  }
  const base = found === 'too long' ? await tooLong(prefix(known), links) : found.real;
  return underReal(base, parts.slice(known), links);
}

/** What `realpath` says of a path: its real path, that it is too long, or `undefined` for any other failure. */
type Probe = { readonly real: string } | 'too long' | undefined;

async function probe(path: string): Promise<Probe> {
  try {
    return { real: await realpath(path) };
  } catch (error) {
    // Too long for the system (with the workspace in front, or one part over NAME_MAX):
    // see tooLong.
    return errnoOf(error) === 'ENAMETOOLONG' ? 'too long' : undefined;
  }
}

/**
 * The parts `realpath` did not take, put under `base` one at a time, a part that is a
 * (dangling) symbolic link followed to where it leads. Once a part is not there at all,
 * nothing below it can be: the rest is kept as written, with no look-up each.
 */
async function underReal(base: string, missing: readonly string[], links: number): Promise<string> {
  let at = base;
  for (const [index, part] of missing.entries()) {
    const candidate = join(at, part);
    const entry = await entryAt(candidate);
    if (entry === 'absent') return join(candidate, ...missing.slice(index + 1));
    at = entry.link === undefined || links >= MAX_LINKS ? candidate : await realpathLoose(resolve(dirname(candidate), entry.link), links + 1);
  }
  return at;
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

/** Whether something is at `path` (not followed) and, for a symbolic link, what it points to. */
async function entryAt(path: string): Promise<{ readonly link: string | undefined } | 'absent'> {
  let link = false;
  try {
    link = (await lstat(path)).isSymbolicLink();
  } catch {
    return 'absent';
  }
  return { link: link ? await readlink(path).catch(() => undefined) : undefined };
}
