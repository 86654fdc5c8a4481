import { realpath } from 'node:fs/promises';
import { errnoOf } from '../errors/errno-of.js';
import { MAX_LINKS, walkLinks } from './link-walk.js';

/**
 * The real path a folder has, or, while it is missing (moved aside, removed), the one it has
 * once put back: the path the system reaches then. A delete keys the conversation's lifetime
 * by it, and every seal binds the folder's real path, so a sessions folder moved aside during
 * the delete and put back still finds the lifetime ended.
 *
 * While missing, the path is followed one name at a time from the root, as the system does
 * (`walkLinks`, the one walk of links, shared with `blockedWayError`):
 * a symbolic link on the way, dangling because its target (or a folder on the way to it) is
 * moved aside, is followed by its text (`readlink`, from the link's folder, `..` taken from
 * where the link leads), so the key is the folder the link leads to once its target is put
 * back, where the files' seals hold, and not the link's own path (the delete would end a
 * lifetime no read ever uses). A name that does not exist at all is taken as the folder it is
 * once put back (nothing there can be a link yet) and the walk goes on: a `..` after it leads
 * back into existing folders, whose links are followed again (`gone/../hop`, with `gone` moved
 * aside, reaches where the link `hop` leads, as the system does once `gone` is back).
 *
 * What it cannot know is a link that changes: a link retargeted, removed or moved aside
 * (before or after the delete) makes the path reach another real place; the files found there
 * are other files for every seal (each binds the real path it was written under), with a
 * lifetime of their own. A delete ends the lifetime of the place its path reaches then.
 *
 * @throws Error naming a link, when the path goes round a loop of links or through more than 40.
 * @throws the system's error when a folder on the way cannot be read (not ENOENT).
 *
 * @example
 * ```ts
 * // .rxharness -> elsewhere, with elsewhere moved aside:
 * await realFolderPath('/repo/.rxharness/sessions'); // '/repo/elsewhere/sessions'
 * ```
 */
export async function realFolderPath(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch (e) {
    // ELOOP too: following it here names a link of the loop.
    if (errnoOf(e) !== 'ENOENT' && errnoOf(e) !== 'ELOOP') throw e;
  }
  return followedPath(dir);
}

/** {@link realFolderPath} for a path the system cannot resolve: its names followed one by one ({@link walkLinks}). */
async function followedPath(dir: string): Promise<string> {
  const walk = await walkLinks(dir);
  if (walk.loop !== undefined) throw loopError(dir, walk.end);
  return walk.end;
}

/** The error of a path through too many links (a loop), naming one of them and what to do. */
function loopError(dir: string, link: string): Error {
  return new Error(
    `the session folder ${dir} cannot be reached: its path goes through more than ${MAX_LINKS} symbolic links ` +
      `(a loop, through ${link}): mend or remove that link, then try again`,
  );
}
