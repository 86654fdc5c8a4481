import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * A task sent to a worker could not run there or stopped without finishing: the worker died
 * (its heartbeat lapsed), lacks a model the task names, or Redis failed. The task ends as a
 * failure result carrying this message; the parent run goes on.
 *
 * @example
 * ```ts
 * // in a task result: "ERROR: the explore task failed: the worker running it stopped ..."
 * RemoteTaskError.isInstance(error); // for errors caught around a launcher
 * ```
 */
export class RemoteTaskError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'REMOTE_TASK';
  /** Always `RemoteTaskError`. */
  override readonly name = 'RemoteTaskError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
