import { constants as bufferConstants } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { SessionFileTooLargeError } from './session-file-too-large-error.js';

/**
 * The most bytes of a session file read whole: the longest string JavaScript holds (some
 * 512 MiB on 64-bit Node). A larger file cannot be read as text; finding out by reading it
 * would take that much memory first, then fail with an error naming no file.
 */
export const MAX_SESSION_FILE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** The first buffer of a read whose size is not known (or said to be 0). */
const FIRST_BUFFER_BYTES = 16 * 1024;

/**
 * The bytes of the open session file `file`, read whole: refused by its size first (a
 * sparse 8 GiB file is not read at all), then by the read itself, which stops one byte past
 * `limit`: a file growing after its size was looked at (or whose size says nothing, as in
 * /proc) is never read further.
 *
 * @throws {@link SessionFileTooLargeError} for a file over `limit` bytes.
 *
 * @example
 * ```ts
 * const text = (await readWhole(handle, file)).toString('utf8');
 * ```
 */
export async function readWhole(handle: FileHandle, file: string, limit = MAX_SESSION_FILE_BYTES): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size > limit) throw new SessionFileTooLargeError(file, size, limit);
  const bytes = await readAtMost(handle, limit + 1, size);
  if (bytes.length > limit) throw new SessionFileTooLargeError(file, Math.max((await handle.stat()).size, bytes.length), limit);
  return bytes;
}

/**
 * Up to `limit` bytes of the open file, from its start. Bounded by the read itself, not by a
 * size looked at before it: a file growing meanwhile (or one whose size says nothing) is
 * never read past `limit`. The buffer grows as the file proves to hold more, never to more
 * than `limit` bytes.
 *
 * @param sizeHint - the size the file said it has, when known: one byte more is read at
 * first, so a file that holds what it says is read in one buffer, its end seen.
 */
export async function readAtMost(handle: FileHandle, limit: number, sizeHint = 0): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(Math.min(limit, Math.max(sizeHint + 1, FIRST_BUFFER_BYTES)));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (filled >= limit) break;
      const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
