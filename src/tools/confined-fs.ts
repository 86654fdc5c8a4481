import { errnoOf } from '../errors/errno-of.js';
import { constants, type Dirent } from 'node:fs';
import { open, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { looksBinary } from './looks-binary.js';

// Checking a path and then opening it leaves a gap in which a folder on the way can be
// swapped for a symbolic link. So these helpers open first and then check what was
// opened: on Linux the kernel names the open file (/proc/self/fd), which no later swap can
// change; elsewhere the path is checked again after the open and must still name the same
// file (a much narrower gap). `O_NOFOLLOW` refuses a link as the last part; `O_NONBLOCK`
// keeps a named pipe from blocking the open (a write-only one with no reader fails: ENXIO).
const GUARDED = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const { O_RDONLY, O_RDWR, O_WRONLY, O_CREAT, O_EXCL } = constants;

/** What {@link openChecked} opens for: its flags, each with `O_NOFOLLOW` and `O_NONBLOCK`. */
export type OpenFor = 'read' | 'folder' | 'edit' | 'write' | 'create';
const FLAGS: Readonly<Record<OpenFor, number>> = {
  read: O_RDONLY | GUARDED,
  folder: O_RDONLY | GUARDED | (constants.O_DIRECTORY ?? 0),
  edit: O_RDWR | GUARDED,
  write: O_WRONLY | GUARDED,
  create: O_WRONLY | O_CREAT | O_EXCL | GUARDED,
};

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
  try {
    return await openChecked(expected, folder ? 'folder' : 'read');
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Opens `expected` (an absolute real path, or one whose missing tail has no links) for `how`,
 * and returns the handle only if the file opened is really there: `undefined` when a folder
 * on the way has become a symbolic link. With `folder`, an open handle of the folder it is
 * in (itself checked), the file is looked up in that very folder (on Linux), so a file is
 * created nowhere else. The system's errors are thrown as they are: `ENOENT`, `ELOOP` (the
 * file itself is now a link), `EISDIR`, `ENXIO` (a named pipe with no reader, for writing).
 *
 * @example
 * ```ts
 * const handle = await openChecked('/repo/a.ts', 'edit');
 * if (handle === undefined) return refuse('a folder of it became a link');
 * ```
 */
export async function openChecked(expected: string, how: OpenFor, folder?: FileHandle): Promise<FileHandle | undefined> {
  const handle = await open(folder === undefined ? expected : pathIn(folder, expected), FLAGS[how], 0o666);
  if (await opensAt(handle, expected).catch(() => false)) return handle;
  await handle.close();
  return undefined;
}

/**
 * The path that names `expected`'s last part inside the open (checked) folder `folder`. On
 * Linux it goes through the folder's descriptor, so the kernel looks the name up in the
 * folder checked, whatever its path names now (what `openat` does, which Node lacks);
 * elsewhere it is `expected`, and the check after the open is all there is.
 */
export function pathIn(folder: FileHandle, expected: string): string {
  return procFd === true ? `/proc/self/fd/${folder.fd}/${basename(expected)}` : expected;
}

/**
 * The first `size` bytes of the open file (fewer if it is shorter now), read by position:
 * the size was learnt from the handle, so a file growing meanwhile is cut there.
 */
export async function readSized(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
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
    // Read the size just learnt (`readFile` would ask for it again).
    const text = await readSized(handle, size);
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
