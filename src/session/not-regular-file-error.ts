import type { Stats } from 'node:fs';
import { RxHarnessError } from '../errors/rxharness-error.js';

/** What a path that should be a regular file turned out to be. */
export type SpecialFileKind = 'directory' | 'FIFO (named pipe)' | 'socket' | 'character device' | 'block device' | 'special file' | 'file with other hard links';

/**
 * The kind of a regular file that has other hard links: another name (maybe outside the
 * workspace) for the same file, so writing it would write that one too.
 */
export const HARD_LINKED: SpecialFileKind = 'file with other hard links';

/**
 * Thrown when a file rxharness keeps under `<workspace>/.rxharness/` (a session, its archive,
 * grants or summary, a task record) is there but is no regular file: a FIFO, a directory, a
 * socket or a device; or a regular file with other hard links (kind `'file with other hard links'`), which
 * writing would write under its other names too. rxharness only ever makes regular files of
 * one link there, so something else put it there (a command run in the workspace, an unpacked
 * archive). Opening a FIFO would wait for a writer for ever, so such a file is refused
 * instead: nothing was read or written. The message names the file and what it is, so the
 * user can remove it.
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
    super(kind === HARD_LINKED ? hardLinkedMessage(file) :
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

/** What to do about a file with other hard links: removing this name leaves the other file as it is. */
function hardLinkedMessage(file: string): string {
  return (
    `Refusing to use ${file}: it has other hard links (another name for the same file, maybe outside the workspace), ` +
    'so writing it would write that file too, and rxharness never makes such a file there. Nothing was read or written; ' +
    `if it is not yours, remove this name (rm '${file}': the other file stays as it is); if it is yours (a copy made with ` +
    `cp -l or cp -al), give it its own copy (cp '${file}' '${file}.own' && mv '${file}.own' '${file}'), and try again.`
  );
}
