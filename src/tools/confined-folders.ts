import { mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';
import { openChecked, pathIn } from './confined-fs.js';

/**
 * Opens the folder `expected` (an absolute path whose existing part is real), creating it
 * and the folders missing above it one at a time, each inside its parent's open, checked
 * handle ({@link openChecked}): a folder on the way swapped for a symbolic link meanwhile
 * makes this answer `undefined`, and no folder is made through it (`mkdir -p` by path would
 * follow the link and make them wherever it leads). The system's errors are thrown
 * (`ENOTDIR` when a part is a file, `EACCES`...).
 *
 * @example
 * ```ts
 * const folder = await openFolderMaking('/repo/notes/2026');
 * if (folder === undefined) return refuse('a folder of the path became a link');
 * ```
 */
export async function openFolderMaking(expected: string): Promise<FileHandle | undefined> {
  try {
    return await openChecked(expected, 'folder');
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
  const parent = dirname(expected);
  if (parent === expected) return undefined;
  // Parent first: at most two folders are open at a time, whatever the depth.
  const above = await openFolderMaking(parent);
  if (above === undefined) return undefined;
  try {
    await mkdir(pathIn(above, expected)).catch((error: unknown) => {
      if (errnoOf(error) !== 'EEXIST') throw error;
    });
    return await openChecked(expected, 'folder', above);
  } finally {
    await above.close();
  }
}
