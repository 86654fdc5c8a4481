import { hasErrorMarker, RxHarnessError } from '../errors/rxharness-error.js';

const MARKER = 'rxharness.error.EngineClosedError';
const SYMBOL = Symbol.for(MARKER);

/**
 * A run was asked of an engine after `close()`: the engine has stopped its background tasks
 * and takes no more work.
 *
 * @example
 * ```ts
 * await engine.close();
 * await engine.call('hi').catch((e) => EngineClosedError.isInstance(e)); // true
 * ```
 */
export class EngineClosedError extends RxHarnessError {
  private readonly [SYMBOL] = true;
  /** Always `EngineClosedError`. */
  override readonly name = 'EngineClosedError';

  constructor() {
    super('ENGINE_CLOSED', 'HarnessEngine: the engine is closed; create a new one to run again');
  }

  /** Whether `value` is an {@link EngineClosedError}, from this copy of the library or another. */
  static override isInstance(value: unknown): value is EngineClosedError {
    return hasErrorMarker(value, MARKER);
  }
}
