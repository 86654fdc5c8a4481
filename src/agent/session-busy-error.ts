import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * A run was refused because another run of the same session has not ended yet. Two runs
 * appending to one conversation at once would interleave their messages (a tool result
 * would no longer follow its call), so the second is refused before it starts.
 *
 * @example
 * ```ts
 * engine.call('next', { sessionId }).catch((e) => {
 *   if (e instanceof SessionBusyError) console.log(`wait for ${e.activeRunId} to end`);
 * });
 * ```
 */
export class SessionBusyError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'SESSION_BUSY';
  /** Always `SessionBusyError`. */
  override readonly name = 'SessionBusyError';

  constructor(
    /** The session that is busy. */
    readonly sessionId: string,
    /** The run that holds it. */
    readonly activeRunId: string,
  ) {
    super(
      `session "${sessionId}" is busy: run ${activeRunId} has not ended yet. ` +
        'Runs of one session go one at a time; wait for its RunEnd (or cancel it), or use another sessionId.',
    );
  }
}
