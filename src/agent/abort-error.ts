import { hasErrorMarker, RxHarnessError } from '../errors/rxharness-error.js';

const MARKER = 'rxharness.error.AbortError';
const SYMBOL = Symbol.for(MARKER);

/**
 * A run was aborted through its `options.signal`. The stream ends with this error (and no
 * `RunEnd`); `call()` rejects with it. `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * try { await engine.call(prompt, { signal }); } catch (e) { if (e instanceof AbortError) return; throw e; }
 * ```
 */
export class AbortError extends RxHarnessError {
  private readonly [SYMBOL] = true;
  /** Always `'AbortError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'AbortError';

  constructor(reason?: unknown) {
    const why = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
    super('ABORTED', `The run was aborted${why}`, { cause: reason });
  }

  /** Whether `value` is a {@link AbortError}, from this copy of the library or another. */
  static override isInstance(value: unknown): value is AbortError {
    return hasErrorMarker(value, MARKER);
  }
}
