import { RxHarnessError } from '../errors/rxharness-error.js';

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
  /** The code of these errors. */
  static override readonly code = 'ENGINE_CLOSED';
  /** Always `EngineClosedError`. */
  override readonly name = 'EngineClosedError';

  constructor() {
    super('HarnessEngine: the engine is closed; create a new one to run again');
  }
}
