import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Asked for a run that is not known: never started, or finished and evicted (see
 * `runRetentionMs` and `maxRetainedRuns`). Over HTTP it is a `404`.
 *
 * @example
 * ```ts
 * engine.runs.attach('run_nope').subscribe({ error: (e) => UnknownRunError.isInstance(e) });
 * ```
 */
export class UnknownRunError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'UNKNOWN_RUN';
  /** Always `UnknownRunError`. */
  override readonly name = 'UnknownRunError';

  constructor(
    /** The run that was asked for. */
    readonly runId: string,
  ) {
    super(`unknown run "${runId}": it never started here, or it finished and was evicted (runRetentionMs, maxRetainedRuns)`);
  }
}
