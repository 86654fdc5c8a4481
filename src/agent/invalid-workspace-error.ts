import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * The `workspace` option names no folder: it does not exist, or is a file. Thrown when an
 * engine or agent is made, so nothing runs against the wrong folder.
 *
 * @example
 * ```ts
 * try { new HarnessEngine({ model, workspace: '/nope' }); } catch (e) { if (InvalidWorkspaceError.isInstance(e)) console.error(e.path); }
 * ```
 */
export class InvalidWorkspaceError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'INVALID_WORKSPACE';
  /** Always `InvalidWorkspaceError`. */
  override readonly name = 'InvalidWorkspaceError';

  /**
   * @param path - the folder that was asked for, made absolute.
   * @param problem - `does not exist` or `is not a folder`.
   */
  constructor(
    readonly path: string,
    problem: 'does not exist' | 'is not a folder',
  ) {
    super(`The workspace "${path}" ${problem}; pass ${problem === 'is not a folder' ? 'a folder' : 'an existing folder'} as \`workspace\``);
  }
}
