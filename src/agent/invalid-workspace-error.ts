import { RxHarnessError } from '../errors/rxharness-error.js';

// What to pass instead, for each problem.
const INSTEAD = {
  'does not exist': 'an existing folder',
  'is a symlink loop': 'a folder (or a link that ends at one)',
  'cannot be read': 'a folder you may read',
  'is not a folder': 'a folder',
} as const;

/**
 * The `workspace` option names no folder: it does not exist, is a symlink loop, cannot be
 * read, or is a file. Thrown when an engine or agent is made, so nothing runs against the
 * wrong folder.
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
   * @param problem - what is wrong with it.
   */
  constructor(
    readonly path: string,
    problem: 'does not exist' | 'is a symlink loop' | 'cannot be read' | 'is not a folder',
  ) {
    super(`The workspace "${path}" ${problem}; pass ${INSTEAD[problem]} as \`workspace\``);
  }
}
