import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { checkOpenedAt } from './file-within.js';

/** Options of {@link readBoundedFile}. */
export interface ReadBoundedOptions {
  /** The most bytes the file may have; a larger one is refused before it is read. */
  readonly maxBytes: number;
  /** What the file is, for the message of one that is too large (`a skill`, `a definition file`). */
  readonly what: string;
  /**
   * Refuse a symbolic link as the last part of `path` (`ELOOP`): it was resolved just before,
   * and a link put in its place meanwhile would be followed anywhere. Every skill is read so.
   */
  readonly noFollow?: boolean;
  /**
   * `path` was resolved just before and checked to lie where it must (a workspace file): read
   * it only if it still is that file, so a folder of it turned into a link before the open is
   * refused, and so is a file with other hard links (see `checkOpenedAt`). Implies `noFollow`.
   */
  readonly confined?: boolean;
}

/**
 * The UTF-8 text of the regular file `path`, read synchronously (discovery must answer
 * before anything is awaited). A workspace file is untrusted: it is opened with
 * `O_NONBLOCK`, so a named pipe (or a link to one swapped in after the folder was listed)
 * cannot block the event loop, and checked on the open file, so only a regular file of at
 * most `maxBytes` is read.
 *
 * @throws Error saying what is wrong with the file, without naming it (`is not a regular
 *   file`, `is 70000 bytes, more than the 65536 a skill may have; shorten it`, `has 2 hard
 *   links...`), or the
 *   system's error (with a `code`: `ENOENT`, `ELOOP` for a link with `noFollow` or `confined`...).
 *
 * @example
 * ```ts
 * const text = readBoundedFile('/repo/.rxharness/agents/a.md', { maxBytes: 256 * 1024, what: 'a definition' });
 * ```
 */
export function readBoundedFile(path: string, options: ReadBoundedOptions): string {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.noFollow || options.confined ? (constants.O_NOFOLLOW ?? 0) : 0);
  const fd = openSync(path, flags);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('is not a regular file');
    if (options.confined) checkOpenedAt(fd, path, stat);
    if (stat.size > options.maxBytes) {
      throw new Error(`is ${stat.size} bytes, more than the ${options.maxBytes} ${options.what} may have; shorten it`);
    }
    // The size just learnt: a file growing meanwhile is cut there.
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
