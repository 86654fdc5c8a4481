import { hasErrorMarker, RxHarnessError } from '../errors/rxharness-error.js';

const MARKER = 'rxharness.error.UnknownRunError';
const SYMBOL = Symbol.for(MARKER);

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
  private readonly [SYMBOL] = true;
  /** Always `UnknownRunError`. */
  override readonly name = 'UnknownRunError';

  constructor(readonly runId: string) {
    super('UNKNOWN_RUN', `unknown run "${runId}": it never started here, or it finished and was evicted (runRetentionMs, maxRetainedRuns)`);
  }

  /** Whether `value` is an {@link UnknownRunError}, from this copy of the library or another. */
  static override isInstance(value: unknown): value is UnknownRunError {
    return hasErrorMarker(value, MARKER);
  }
}
