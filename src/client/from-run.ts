import { Observable } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { RunStreamError } from './client-errors.js';
import { followLimits, type FromRunOptions } from './from-run-options.js';
import type { StreamOutcome } from './read-run-stream.js';
import { requestHeaders } from './run-requests.js';
import { follow, type Follower } from './run-follower.js';

// The options live with their defaults (from-run-options.ts); they are named here too, where callers of `fromRun` have always found them.
export type { FromRunOptions } from './from-run-options.js';

/**
 * Follows a run of a `runsHandler` server: its events (`{ runId, seq, event }`) from the one
 * after `after`, each exactly once and in order, then it completes after the run's `RunEnd`.
 * It reads the server-sent events over `fetch` (a streamed body; no `EventSource`, so no
 * reconnection can ever start a run). When the connection drops it reconnects from the last
 * seq it delivered, waiting `retryDelayMs`, then twice as long each time, and gives up with a
 * {@link RunConnectionError} after `maxRetries` failures in a row; a connection that brings
 * an event resets the count, and one silent for `idleTimeoutMs` counts as a failure. A final
 * answer is not retried: an unknown run errors with a `404` {@link RunRequestError} (and a
 * `200` that is no event stream, from a `baseUrl` naming a dev server's page, with one), a
 * cancelled run with an `AbortError`, a failed one with a {@link RunStreamError}, and so does
 * a stream that breaks the protocol (`serverName`: `BadMessage` for an event of the wrong
 * shape, `MessageTooLarge`, `NoRunEnd` for a server that ends the stream without the run's
 * `RunEnd`). Nothing after the `RunEnd` is read. Unsubscribing aborts the request; the run goes on;
 * so does `signal` aborting, and then it errors with the signal's reason.
 *
 * @example
 * ```ts
 * const { runId } = await startRun('/api', { prompt: 'Survey this project' });
 * fromRun('/api', runId)
 *   .pipe(map(({ event }) => toUiItem(event)))
 *   .subscribe({ next: render, error: (e) => (e.name === 'AbortError' ? showCancelled() : showError(e)) });
 * ```
 */
export function fromRun(baseUrl: string, runId: string, options: FromRunOptions = {}): Observable<SequencedEvent> {
  const { after, maxRetries, retryDelayMs, idleTimeoutMs, maxMessageLength } = followLimits(options);
  return new Observable<SequencedEvent>((subscriber) => {
    const controller = new AbortController();
    // never called as a method of the follower: a browser's fetch throws "Illegal invocation" when `this` is not the window
    const fetchFn = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));
    const headers = requestHeaders(options, 'text/event-stream');
    const follower: Follower = { baseUrl, runId, fetch: fetchFn, headers, signal: controller.signal, after, last: after, idleTimeoutMs, maxMessageLength, subscriber };
    // The caller's signal (`RequestOptions.signal`): it stops following as unsubscribing would, and says why.
    const given = options.signal;
    const giveUp = (): void => {
      controller.abort(given!.reason);
      subscriber.error(given!.reason);
    };
    if (given?.aborted) {
      giveUp();
      return undefined;
    }
    given?.addEventListener('abort', giveUp, { once: true });
    follow(follower, maxRetries, retryDelayMs).then(
      (outcome) => {
        // a throw here would be an unhandled rejection, and the Observable would never settle
        try {
          end(follower, outcome);
        } catch (error) {
          subscriber.error(error);
        }
      },
      (error: unknown) => controller.signal.aborted || subscriber.error(error),
    );
    return () => {
      given?.removeEventListener('abort', giveUp);
      controller.abort();
    };
  });
}

/** Ends the Observable as the run's last connection ended: nothing when the consumer left first. */
function end(f: Follower, outcome: StreamOutcome | undefined): void {
  if (outcome === undefined || f.subscriber.closed) return;
  if (outcome.kind === 'run-end') f.subscriber.complete();
  // A bare `end` is right only for a consumer that asked to start past the RunEnd and was given nothing.
  else if (outcome.kind === 'end' && f.last === f.after && f.after > 0) f.subscriber.complete();
  else if (outcome.kind === 'end') f.subscriber.error(new RunStreamError(f.runId, 'NoRunEnd', 'the server ended the stream without the run\'s RunEnd', 'client'));
  else if (outcome.kind === 'cancelled') f.subscriber.error(new AbortError(new Error(outcome.reason)));
  else if (outcome.kind === 'failed') f.subscriber.error(new RunStreamError(f.runId, outcome.name, outcome.message));
}
