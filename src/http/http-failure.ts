/**
 * A request the handler refuses, with the status to answer and the message for the JSON
 * body `{ error }`. Internal to the HTTP layer: it never leaves the handler.
 */
export class HttpFailure extends Error {
  override readonly name = 'HttpFailure';

  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}
