import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Thrown when `FileSessionStore` reads a session file holding messages that are not sealed
 * with the user's key for this folder and session: written by a version of rxharness from
 * before history was sealed, sealed in another folder (a moved workspace) or with another
 * key, or planted (a cloned repository can ship `.rxharness/sessions/`). Nothing is taken as
 * the conversation; the file is left as it is. The message says what was found and how to
 * keep the session when it is the user's own: the store's `trustUnsealed` option
 * (`rxharness run --session NAME --trust-session`), which seals it.
 *
 * @example
 * ```ts
 * engine.call(prompt, { sessionId }).catch((e: unknown) => {
 *   if (e instanceof Error && e.name === 'UnsealedSessionError') console.error(e.message);
 * });
 * ```
 */
export class UnsealedSessionError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'SESSION_NOT_SEALED';
  /** Always `'UnsealedSessionError'`, to recognise the error without `instanceof`. */
  override readonly name = 'UnsealedSessionError';

  /**
   * @param sessionId - the session that was read.
   * @param file - the file holding the messages.
   * @param lines - the lines (1-based) holding a message without a valid seal.
   */
  constructor(
    readonly sessionId: string,
    readonly file: string,
    readonly lines: readonly number[],
  ) {
    const count = lines.length;
    super(
      `Session "${sessionId}" was not loaded: ${file} holds ${count} message${count === 1 ? '' : 's'} not sealed with your key for this folder ` +
        `(line${count === 1 ? '' : 's'} ${lines.slice(0, 5).join(', ')}${count > 5 ? ', ...' : ''}). ` +
        'It was written by rxharness before sessions were sealed, in another folder (a moved workspace) or with another key, or planted ' +
        '(a cloned repository can ship this file, with a made-up conversation). ' +
        'Read the file: if it is your conversation, continue it once with --trust-session (the FileSessionStore option trustUnsealed), ' +
        'which seals it; if not, delete it, or use another session name.',
    );
  }
}
