import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/**
 * The real path of `file` when it lies inside the folder `within` (both resolved through
 * their symbolic links), so that it can be read with no link followed (`O_NOFOLLOW`): a link
 * put in its place after this check is refused rather than followed out.
 *
 * @param realWithin - the folder, already resolved with `realpathSync`.
 * @throws Error saying where the file leads, when a link takes it out of the folder; the
 *   system's error (with a `code`) when it cannot be resolved.
 *
 * @example
 * ```ts
 * realFileWithin('/repo/.rxharness/agents/a.md', realpathSync('/repo')); // '/repo/.rxharness/agents/a.md'
 * ```
 */
export function realFileWithin(file: string, realWithin: string): string {
  const real = realpathSync(file);
  if (!isInside(real, realWithin)) {
    throw new Error(`is a symbolic link leading out of the workspace (to ${real}); a definition in the workspace must be a file of the workspace: copy it in instead`);
  }
  return real;
}

/** Whether the path `real` lies strictly inside the folder `realWithin` (both already resolved). */
export function isInside(real: string, realWithin: string): boolean {
  const inside = relative(realWithin, real);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

/** `realpathSync(folder)`, or `folder` itself when it cannot be resolved (a missing workspace has no files to read). */
export function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/**
 * Throws unless the file open as `fd` (whose `fstat` is `stat`) is the file at `real`, a path
 * just resolved and checked to lie where it must, and its only name. Opening with `O_NOFOLLOW`
 * refuses a link as the last part only: a folder of the path swapped for a link between the
 * check and the open (`skills/evil -> ~/.ssh`) would be followed out. On Linux the kernel names
 * the file opened (/proc/self/fd), which must be `real`; elsewhere `real` must still resolve to
 * itself and be the file opened. A file with another hard link is refused too: its other name
 * may lie anywhere (a planted `ln ~/.ssh/id_rsa SKILL.md`), and no link check can see it;
 * the message names pnpm, whose installs are such hard links, and the ways around it.
 * The same rules as the session files' (`openConfined` in src/session/confined-file.ts), synchronously.
 *
 * @throws Error saying what is wrong, without naming the file (the caller does).
 */
export function checkOpenedAt(fd: number, real: string, stat: Stats): void {
  const opened = openedPath(fd);
  if (opened !== undefined ? opened !== real : !stillAt(real, stat)) {
    const where = opened !== undefined ? ` (it opened ${opened})` : '';
    throw new Error(`was reached through a symbolic link swapped in for one of its folders as it was read${where}; a file read from the workspace must be a file of the workspace: copy it in instead`);
  }
  if (stat.nlink > 1) {
    throw new Error(
      `has ${stat.nlink} hard links: its other name may be a file outside the workspace, so it is not read (pnpm installs a package's files as hard links to its store); ` +
        'copy it in as a file of its own rather than linking to it (cp -r a skill folder out of node_modules), or keep it in your own ~/.rxharness/skills or ~/.rxharness/agents, where hard links are read',
    );
  }
}

/** The kernel's path of the file open as `fd` (Linux), or `undefined` where it does not say. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Whether `real` still resolves to itself and names the file `stat` describes (same device and inode). */
function stillAt(real: string, stat: Stats): boolean {
  try {
    const now = lstatSync(real);
    return realpathSync(real) === real && now.dev === stat.dev && now.ino === stat.ino;
  } catch {
    return false;
  }
}
