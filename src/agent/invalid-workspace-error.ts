import { hasErrorMarker, RxHarnessError } from '../errors/rxharness-error.js';

const MARKER = 'rxharness.error.InvalidWorkspaceError';
const SYMBOL = Symbol.for(MARKER);

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
  private readonly [SYMBOL] = true;
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
    super('INVALID_WORKSPACE', `The workspace "${path}" ${problem}; pass ${problem === 'is not a folder' ? 'a folder' : 'an existing folder'} as \`workspace\``);
  }

  /** Whether `value` is an {@link InvalidWorkspaceError}, from this copy of the library or another. */
  static override isInstance(value: unknown): value is InvalidWorkspaceError {
    return hasErrorMarker(value, MARKER);
  }
}
