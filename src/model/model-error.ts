import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * A model request failed: an HTTP error (with its `status`) or a connection failure or
 * timeout, after the model's retries; or a response that went wrong once it had begun (never
 * retried): a silence longer than the model's timeout, a stream cut before its
 * `finish_reason` or `[DONE]`, a body that could not be parsed, an error sent inside the
 * stream. The message says which, and what had arrived. The ReAct loop turns it into an
 * abnormal `RunEnd` whose `error` is this message.
 *
 * @example
 * ```ts
 * model.stream(request).subscribe({ error: (e) => e instanceof ModelError && console.log(e.status) });
 * ```
 */
export class ModelError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'MODEL_ERROR';
  /** Always `'ModelError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'ModelError';
  /** The HTTP status, when the server answered with one. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}
