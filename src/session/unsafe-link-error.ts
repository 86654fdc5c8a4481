import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Thrown when a file rxharness keeps under `<workspace>/.rxharness/` (a session, a task
 * record, a generated agent) would be reached through a symbolic link that leads out of
 * the folder it must stay in, or is itself a link. Nothing was written (or read); the
 * message names the link, so the user can remove it.
 *
 * @example
 * ```ts
 * try {
 *   await store.append('s1', messages);
 * } catch (error) {
 *   if (error instanceof Error && error.name === 'UnsafeLinkError') console.error(error.message);
 * }
 * ```
 */
export class UnsafeLinkError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'UNSAFE_LINK';
  /** Always `'UnsafeLinkError'`, to recognise the error without `instanceof`. */
  override readonly name = 'UnsafeLinkError';

  /**
   * @param file - the file that was to be written or read.
   * @param link - the symbolic link on the way (possibly `file` itself).
   * @param target - where the link leads.
   * @param root - the folder the file must stay in.
   * @param rootLabel - how to name that folder: `the workspace`, `the session folder`...
   * @param outside - whether `target` lies outside `root`; a link as the file itself is refused wherever it leads.
   */
  constructor(
    readonly file: string,
    readonly link: string,
    readonly target: string,
    readonly root: string,
    rootLabel: string,
    outside: boolean,
  ) {
    super(
      `Refusing to use ${file}: ${link} is a symbolic link to ${target}` +
        (outside ? `, outside ${rootLabel} ${root}. ` : ', and rxharness never writes or reads its own files through a link. ') +
        `Nothing was written; remove the link${outside && link !== file ? ' (or make it a real folder)' : ''} and try again.`,
    );
  }
}
