import { errnoOf } from '../errors/errno-of.js';
import { constants, type Dirent } from 'node:fs';
import { open, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { looksBinary } from './looks-binary.js';

// Checking a path and then opening it leaves a gap in which a folder on the way can be
// swapped for a symbolic link. So these helpers open first and then check what was
// opened: on Linux the kernel names the open file (/proc/self/fd), which no later swap can
// change; elsewhere the path is checked again after the open and must still name the same
// file (a much narrower gap). `O_NOFOLLOW` refuses a link as the last part; `O_NONBLOCK`
// keeps a named pipe from blocking the open.
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const FOLDER = FLAGS | (constants.O_DIRECTORY ?? 0);

/** Whether `/proc/self/fd` names open files here; learnt on first use. */
let procFd: boolean | undefined;

/**
 * Opens `expected` (an absolute real path) for reading, but only if that is really where
 * the opened file is: `undefined` when a symbolic link now lies on the way (or is the file
 * itself), or the file is gone.
 *
 * @example
 * ```ts
 * const handle = await openAt('/repo/src/a.ts');
 * if (handle === undefined) return; // moved, or reached through a link: not read
 * ```
 */
export async function openAt(expected: string, folder = false): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(expected, folder ? FOLDER : FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT') return undefined;
    throw error;
  }
  if (await opensAt(handle, expected).catch(() => false)) return handle;
  await handle.close();
  return undefined;
}

/**
 * The text of the regular file `expected`, or `undefined` when it is not one, is larger
 * than `maxBytes`, looks binary, cannot be read, or is not really at `expected`.
 *
 * @example
 * ```ts
 * const text = await readTextAt('/repo/src/a.ts', 5 * 1024 * 1024);
 * ```
 */
export async function readTextAt(expected: string, maxBytes: number): Promise<string | undefined> {
  const handle = await openAt(expected).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    const size = stats.size;
    if (!stats.isFile() || size > maxBytes) return undefined;
    // Read the size just learnt (`readFile` would ask for it again): a file growing meanwhile is cut there.
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const text = bytes.subarray(0, filled);
    return looksBinary(text) ? undefined : text.toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The entries of the folder `expected` (an absolute real path), or `undefined` when a
 * symbolic link now lies on the way to it or it is gone. File-system errors are thrown.
 *
 * @example
 * ```ts
 * const entries = await readFolderAt('/repo/src');
 * ```
 */
export async function readFolderAt(expected: string): Promise<Dirent[] | undefined> {
  const handle = await openAt(expected, true);
  if (handle === undefined) return undefined;
  try {
    // Reading through the descriptor lists the folder that was checked, whatever the path names now.
    if (procFd) return await readdir(`/proc/self/fd/${handle.fd}`, { withFileTypes: true });
    const entries = await readdir(expected, { withFileTypes: true });
    return (await realpath(expected)) === expected ? entries : undefined;
  } finally {
    await handle.close();
  }
}

async function opensAt(handle: FileHandle, expected: string): Promise<boolean> {
  if (procFd !== false) {
    try {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`);
      procFd = true;
      return opened === expected;
    } catch (error) {
      if (procFd === true) throw error;
      procFd = false;
    }
  }
  const [real, opened, named] = await Promise.all([realpath(expected), handle.stat(), stat(expected)]);
  return real === expected && opened.dev === named.dev && opened.ino === named.ino;
}
