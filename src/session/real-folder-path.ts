import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';

/**
 * The real path a folder has, or, while it is missing (moved aside, removed), the one it has
 * once made or put back: the real path of its nearest existing ancestor joined with the
 * names below it. A delete keys the conversation's lifetime by it, so a sessions folder moved
 * aside during the delete and put back still finds the lifetime ended (the names below the
 * ancestor do not exist, so no link among them can make the real path differ then).
 *
 * @throws the system's error when a folder on the way cannot be read (not ENOENT).
 *
 * @example
 * ```ts
 * await realFolderPath('/repo/.rxharness/sessions'); // '/repo/.rxharness/sessions', even while it is missing
 * ```
 */
export async function realFolderPath(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch (e) {
    const parent = dirname(dir);
    if (errnoOf(e) !== 'ENOENT' || parent === dir) throw e;
    return join(await realFolderPath(parent), basename(dir));
  }
}
