/**
 * A model request failed after the client's retries: an HTTP error (with its `status`), a
 * connection failure or timeout, or a response the client could not parse. The ReAct loop
 * turns it into an abnormal `RunEnd` whose `error` is this message.
 *
 * @example
 * ```ts
 * model.stream(request).subscribe({ error: (e) => e instanceof ModelError && console.log(e.status) });
 * ```
 */
export class ModelError extends Error {
  /** Always `'ModelError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'ModelError';
  /** The HTTP status, when the server answered with one. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}
