import { lstat, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { blockedWayError } from './blocked-way.js';
import { checkConfined, type ConfinedRoot } from './confined-file.js';
import { errnoOf } from '../errors/errno-of.js';

/**
 * Removes each of `files` below `root` (the folders on the way must stay inside; a link as
 * the file is removed itself, never its target; a file that is not there is no error). A
 * FIFO, socket or device under one of the names is removed like a file (unlinked, never
 * opened). A folder is left as it is, since its content is not the store's to judge, and
 * does not stop the others: the answer lists the folders left, for the caller to say so.
 * Every file's way is checked before any is removed, so a blocked one removes nothing.
 *
 * @throws `UnsafeLinkError` naming a link on the way; an Error naming what blocks the way
 * (`blockedWayError`: a link in a loop, a file or a dangling link where a folder should be),
 * where the system said only `ELOOP` or `ENOTDIR` of the file.
 *
 * @example
 * ```ts
 * const left = await removeConfinedFiles(root, [`${dir}/s1.jsonl`, `${dir}/s1.summary.json`]);
 * if (left[0] !== undefined) throw new NotRegularFileError(left[0], 'directory');
 * ```
 */
export async function removeConfinedFiles(root: ConfinedRoot, files: readonly string[]): Promise<string[]> {
  const folders = [];
  for (const file of files) {
    await checkConfined(root, file, 'folder');
    folders.push(await lstat(file).then((stats) => stats.isDirectory(), (e: unknown) => absent(root, file, e)));
  }
  const left: string[] = [];
  for (const [index, file] of files.entries()) {
    if (folders[index]) left.push(file);
    else await rm(file, { force: true }).catch(async (e: unknown) => Promise.reject(await blockedWayError(root, dirname(file), e)));
  }
  return left;
}

/** A file not there is no error (`false`: no folder); a way that cannot be gone (a loop, a file on it) is, named. */
async function absent(root: ConfinedRoot, file: string, error: unknown): Promise<false> {
  if (errnoOf(error) === 'ENOENT') return false;
  throw await blockedWayError(root, dirname(file), error);
}
