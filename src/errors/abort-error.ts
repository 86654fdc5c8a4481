import { RxHarnessError } from './rxharness-error.js';

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
  /** The code of these errors. */
  static override readonly code = 'ABORTED';
  /** Always `'AbortError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'AbortError';

  constructor(reason?: unknown) {
    const why = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
    super(`The run was aborted${why}`, { cause: reason });
  }
}
