import type { Stats } from 'node:fs';
import { RxHarnessError } from '../errors/rxharness-error.js';

/** What a path that should be a regular file turned out to be. */
export type SpecialFileKind = 'directory' | 'FIFO (named pipe)' | 'socket' | 'character device' | 'block device' | 'special file';

/**
 * Thrown when a file rxharness keeps under `<workspace>/.rxharness/` (a session, its archive,
 * grants or summary, a task record) is there but is no regular file: a FIFO, a directory, a
 * socket or a device. rxharness only ever makes regular files there, so something else put it
 * there (a command run in the workspace, an unpacked archive). Opening a FIFO would wait for a
 * writer for ever, so such a file is refused instead: nothing was read or written. The
 * message names the file and what it is, so the user can remove it.
 *
 * @example
 * ```ts
 * try {
 *   await store.load('s1');
 * } catch (error) {
 *   if (error instanceof Error && error.name === 'NotRegularFileError') console.error(error.message);
 * }
 * ```
 */
export class NotRegularFileError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'NOT_REGULAR_FILE';
  /** Always `'NotRegularFileError'`, to recognise the error without `instanceof`. */
  override readonly name = 'NotRegularFileError';

  /**
   * @param file - the file that was to be read, written or removed.
   * @param kind - what it is instead of a regular file.
   */
  constructor(
    readonly file: string,
    readonly kind: SpecialFileKind,
  ) {
    super(
      `Refusing to use ${file}: it is a ${kind}, not a regular file. rxharness only makes regular files there, ` +
        'so something else put it there (a command run in the workspace, an unpacked archive). Nothing was read or written; ' +
        `remove it (${kind === 'directory' ? 'rm -r' : 'rm'} '${file}') if it is not yours, and try again.`,
    );
  }
}

/**
 * What `stats` describe when it is not a regular file (nor a symbolic link, which the
 * confinement checks refuse with their own error); `undefined` for a regular file or a link.
 *
 * @example
 * ```ts
 * specialKind(await lstat(file)); // 'FIFO (named pipe)' for a mkfifo
 * ```
 */
export function specialKind(stats: Stats): SpecialFileKind | undefined {
  if (stats.isFile() || stats.isSymbolicLink()) return undefined;
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'FIFO (named pipe)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  return 'special file';
}
