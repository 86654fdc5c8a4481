import { realpathSync } from 'node:fs';
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
