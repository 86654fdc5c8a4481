import { constants as bufferConstants } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { SessionFileTooLargeError } from './session-file-too-large-error.js';

/**
 * The most bytes of a session file read whole: the longest string JavaScript holds (some
 * 512 MiB on 64-bit Node). A larger file cannot be read as text; finding out by reading it
 * would take that much memory first, then fail with an error naming no file.
 */
export const MAX_SESSION_FILE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/**
 * The bytes of the open session file `file`, read whole; refused by its size first.
 *
 * @throws {@link SessionFileTooLargeError} for a file over `limit` bytes, before anything is read.
 *
 * @example
 * ```ts
 * const text = (await readWhole(handle, file)).toString('utf8');
 * ```
 */
export async function readWhole(handle: FileHandle, file: string, limit = MAX_SESSION_FILE_BYTES): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size > limit) throw new SessionFileTooLargeError(file, size, limit);
  return handle.readFile();
}
