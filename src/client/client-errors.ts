import { markInvisible } from '../text/visible-text.js';
import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * The server answered a request about runs with an error status. `message` quotes the server's
 * `{ error }` text (or the start of its body) with its control characters marked (`<U+001B>`),
 * `serverError` keeps it as sent, `status` is the HTTP status: `400` a bad request,
 * `404` an unknown run or no pending call, `409` a busy session, `413` a body too large.
 * Also an answer of the right status that is too large to take (over 32 MiB; `serverError` says so).
 *
 * @example
 * ```ts
 * try { await startRun('/api', { prompt: '' }); }
 * catch (e) { if (RunRequestError.isInstance(e) && e.status === 400) alert(e.message); }
 * ```
 */
export class RunRequestError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'RUN_REQUEST';
  /** Always `RunRequestError`. */
  override readonly name = 'RunRequestError';

  constructor(
    /** The HTTP status the server answered. */
    readonly status: number,
    /** The server's `{ error }` text. */
    readonly serverError: string,
    /** What was asked, e.g. `POST /api/runs`. */
    readonly request: string,
  ) {
    // the server's text, shown with its controls marked: a message is printed to terminals, where a hostile server's escapes would act
    super(`${request} answered ${status}: ${markInvisible(serverError)}`);
  }
}

/**
 * {@link fromRun} lost its connection to the run and could not get it back: `attempts`
 * connections in a row failed without one new event. `cause` is the last failure.
 *
 * @example
 * ```ts
 * fromRun('/api', runId).subscribe({ error: (e) => RunConnectionError.isInstance(e) && showOffline() });
 * ```
 */
export class RunConnectionError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'RUN_CONNECTION';
  /** Always `RunConnectionError`. */
  override readonly name = 'RunConnectionError';

  constructor(
    /** The run that was followed. */
    readonly runId: string,
    /** The connections tried in a row, none of which brought an event. */
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`lost the connection to run "${runId}": ${attempts} attempts in a row failed, the last with: ${describe(cause)}`, { cause });
  }
}

/**
 * The server ended a run's event stream with `event: error`: the run failed in a way it could
 * not report as a `RunEnd` (its event log failed), or it was evicted while being read.
 * `message` quotes the server's words with their control characters marked (`<U+001B>`):
 * of an `event: error`, the start of each (300 characters of its name, 4096 of its message),
 * cut as it is read. `serverName` is the server's error name (e.g. `UnknownRunError`), or the client's word for
 * a stream it refused: `BadMessage` (not a well-formed event of the run), `MessageTooLarge`
 * (over `maxMessageLength`), `NoRunEnd` (ended without the run's `RunEnd`), `NoBody`.
 *
 * @example
 * ```ts
 * fromRun('/api', runId).subscribe({ error: (e) => RunStreamError.isInstance(e) && console.log(e.serverName) });
 * ```
 */
export class RunStreamError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'RUN_STREAM';
  /** Always `RunStreamError`. */
  override readonly name = 'RunStreamError';

  constructor(
    /** The run that was followed. */
    readonly runId: string,
    /** The name of the error on the server, or the client's word for a stream it refused. */
    readonly serverName: string,
    serverMessage: string,
    /** Who ended the stream: the server (`event: error`), or the client, refusing what the server sent. */
    readonly endedBy: 'server' | 'client' = 'server',
  ) {
    super(
      endedBy === 'server'
        ? `run "${runId}" ended with an error on the server: ${markInvisible(`${serverName}: ${serverMessage}`)}`
        : `the event stream of run "${runId}" was refused: ${serverName}: ${markInvisible(serverMessage)}`,
    );
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message || cause.name;
  return String(cause);
}
