import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Thrown when a file of a `FileSessionStore` (a session's messages, its archive, its grants, a
 * task record) is too large to be read at all: over `MAX_SESSION_FILE_BYTES` (`read-whole.ts`), the
 * most text one JavaScript string holds, so reading it whole would fail with an error naming
 * nothing, after taking that much memory. Such a file grows only over an enormous history,
 * or was planted (a command run in the workspace, an unpacked archive). Nothing was read or
 * written; the message names the file, its size and what to do.
 *
 * @example
 * ```ts
 * try {
 *   await store.load('s1');
 * } catch (error) {
 *   if (error instanceof Error && error.name === 'SessionFileTooLargeError') console.error(error.message);
 * }
 * ```
 */
export class SessionFileTooLargeError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'SESSION_FILE_TOO_LARGE';
  /** Always `'SessionFileTooLargeError'`, to recognise the error without `instanceof`. */
  override readonly name = 'SessionFileTooLargeError';

  /**
   * @param file - the file that was to be read.
   * @param bytes - its size.
   * @param limit - the most bytes a session file may have.
   */
  constructor(
    readonly file: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      `Refusing to read ${file}: it is ${bytes} bytes, over the ${limit} a session file can be read in (the longest string ` +
        'JavaScript holds). A conversation reaches that size only over an enormous history; otherwise something else put it there ' +
        `(a command run in the workspace, an unpacked archive). Nothing was read or written; move it out of the folder (mv '${file}' ...) ` +
        'to keep it, or delete it, and try again: the session then starts anew.',
    );
  }
}
