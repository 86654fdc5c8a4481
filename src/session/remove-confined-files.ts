import { lstat, rm } from 'node:fs/promises';
import { checkConfined, type ConfinedRoot } from './confined-file.js';

/**
 * Removes each of `files` below `root` (the folders on the way must stay inside; a link as
 * the file is removed itself, never its target; a file that is not there is no error). A
 * FIFO, socket or device under one of the names is removed like a file (unlinked, never
 * opened). A folder is left as it is, since its content is not the store's to judge, and
 * does not stop the others: the answer lists the folders left, for the caller to say so.
 *
 * @throws `UnsafeLinkError` naming a link on the way (the files after it are left).
 *
 * @example
 * ```ts
 * const left = await removeConfinedFiles(root, [`${dir}/s1.jsonl`, `${dir}/s1.summary.json`]);
 * if (left[0] !== undefined) throw new NotRegularFileError(left[0], 'directory');
 * ```
 */
export async function removeConfinedFiles(root: ConfinedRoot, files: readonly string[]): Promise<string[]> {
  const left: string[] = [];
  for (const file of files) {
    await checkConfined(root, file, 'folder');
    if ((await lstat(file).catch(() => undefined))?.isDirectory()) left.push(file);
    else await rm(file, { force: true });
  }
  return left;
}
