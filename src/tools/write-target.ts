import { lstat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';
import { openChecked, pathIn } from './confined-fs.js';
import { openFolderMaking } from './confined-folders.js';

/** The file `write` writes, open and checked, with the (checked) folder it is in. */
export interface WriteTarget {
  /** The file, open for writing, not yet cut. */
  readonly file: FileHandle;
  /** Whether this open created it (it did not exist before). */
  readonly created: boolean;
  /**
   * Removes the file again if this open created it (a write cancelled or failed before its
   * content was in place would leave an empty or cut new file behind). Only the file held
   * open is removed: the name is looked up in the very folder it was created in and must
   * still be that file (same device and inode), so a file swapped in under the name since is
   * kept. Folders made on the way stay. Never throws: the write's own failure is the answer.
   */
  discard(): Promise<void>;
  /** Closes the file and its folder. */
  close(): Promise<void>;
}

/**
 * Opens the file `expected` (an absolute path whose existing part is real) for writing,
 * making the folders missing above it ({@link openFolderMaking}), without cutting it
 * (`O_TRUNC` would cut a file before it is checked); `undefined` when a folder on the way
 * became a link. The folder stays open with the file, for {@link WriteTarget.discard}. The
 * system's errors are thrown (`EEXIST` when the file appeared between the two opens).
 *
 * @example
 * ```ts
 * const target = await openWriteTarget('/repo/notes/todo.md');
 * ```
 */
export async function openWriteTarget(expected: string): Promise<WriteTarget | undefined> {
  const folder = await openFolderMaking(dirname(expected));
  if (folder === undefined) return undefined;
  let opened: { file: FileHandle; created: boolean } | undefined;
  try {
    opened = await openFile(expected, folder);
  } finally {
    if (opened === undefined) await folder.close();
  }
  if (opened === undefined) return undefined;
  const { file, created } = opened;
  return {
    file,
    created,
    discard: async () => {
      if (created) await removeIfStill(folder, expected, file).catch(() => undefined);
    },
    close: async () => {
      try {
        await file.close();
      } finally {
        await folder.close();
      }
    },
  };
}

async function openFile(expected: string, folder: FileHandle): Promise<{ file: FileHandle; created: boolean } | undefined> {
  try {
    const file = await openChecked(expected, 'write', folder);
    return file && { file, created: false };
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
  const file = await openChecked(expected, 'create', folder);
  return file && { file, created: true };
}

/**
 * Unlinks `expected`'s name in `folder` if it still names the open `file`. Node has no
 * `unlinkat` by inode, so a swap between the look-up and the unlink stays possible, but only
 * in that gap of two calls, and only inside the folder the file was created in.
 */
async function removeIfStill(folder: FileHandle, expected: string, file: FileHandle): Promise<void> {
  const name = pathIn(folder, expected);
  const [held, named] = await Promise.all([file.stat(), lstat(name)]);
  if (held.dev === named.dev && held.ino === named.ino) await unlink(name);
}
