import { Observable, type Subscriber } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { RunConnectionError, RunStreamError } from './client-errors.js';
import { readRunStream, type StreamOutcome } from './read-run-stream.js';
import { requestError, requestHeaders, runUrl, type RequestOptions } from './run-requests.js';

/** Options of {@link fromRun}. */
export interface FromRunOptions extends RequestOptions {
  /** Start after this seq (default 0: from the run's first event). */
  readonly after?: number;
  /** How many connections in a row may fail (without one new event) before giving up with a `RunConnectionError`; default 6. */
  readonly maxRetries?: number;
  /** The wait before the first reconnection, in milliseconds, doubled after each further failure (at most 10 s); default 250. */
  readonly retryDelayMs?: number;
}

const MAX_DELAY_MS = 10_000;
/** Statuses worth trying again: the server or a proxy is busy or restarting. Any other is final. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Follows a run of a `runsHandler` server: its events (`{ runId, seq, event }`) from the one
 * after `after`, each exactly once and in order, then it completes after the run's `RunEnd`.
 * It reads the server-sent events over `fetch` (a streamed body; no `EventSource`, so no
 * reconnection can ever start a run). When the connection drops it reconnects from the last
 * seq it delivered, waiting `retryDelayMs`, then twice as long each time, and gives up with a
 * {@link RunConnectionError} after `maxRetries` failures in a row; a connection that brings
 * an event resets the count. A final answer is not retried: an unknown run errors with a
 * `404` {@link RunRequestError}, a cancelled run with an `AbortError`, a failed one with a
 * {@link RunStreamError}. Unsubscribing aborts the request; the run goes on.
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
  const after = count('after', options.after ?? 0);
  const maxRetries = count('maxRetries', options.maxRetries ?? 6);
  const retryDelayMs = count('retryDelayMs', options.retryDelayMs ?? 250);
  return new Observable<SequencedEvent>((subscriber) => {
    const controller = new AbortController();
    // never called as a method of the follower: a browser's fetch throws "Illegal invocation" when `this` is not the window
    const fetchFn = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));
    const headers = requestHeaders(options, 'text/event-stream');
    const follower: Follower = { baseUrl, runId, fetch: fetchFn, headers, signal: controller.signal, last: after, subscriber };
    follow(follower, maxRetries, retryDelayMs).then(
      (outcome) => end(follower, outcome),
      (error: unknown) => controller.signal.aborted || subscriber.error(error),
    );
    return () => controller.abort();
  });
}

interface Follower {
  readonly baseUrl: string;
  readonly runId: string;
  readonly fetch: NonNullable<RequestOptions['fetch']>;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  last: number;
  readonly subscriber: Subscriber<SequencedEvent>;
}

/** Connects until the run ends (or is cancelled or fails); undefined when the consumer left first. */
async function follow(f: Follower, maxRetries: number, retryDelayMs: number): Promise<StreamOutcome | undefined> {
  for (let failures = 0; ; ) {
    const before = f.last;
    const outcome = await connect(f);
    if (f.signal.aborted) return undefined;
    if (outcome.kind !== 'dropped') return outcome;
    failures = f.last > before ? 1 : failures + 1;
    if (failures > maxRetries) throw new RunConnectionError(f.runId, failures, outcome.cause);
    await sleep(Math.min(retryDelayMs * 2 ** (failures - 1), MAX_DELAY_MS), f.signal);
    if (f.signal.aborted) return undefined;
  }
}

/** One connection, from after the last seq delivered. */
async function connect(f: Follower): Promise<StreamOutcome> {
  const url = `${runUrl(f.baseUrl, f.runId, 'events')}?after=${f.last}`;
  let response: Response;
  try {
    response = await f.fetch(url, { headers: f.headers, signal: f.signal });
  } catch (error) {
    return { kind: 'dropped', cause: error }; // the network, or our own abort (checked by the caller)
  }
  if (response.status !== 200) {
    const error = await requestError(response, `GET ${url}`);
    if (RETRYABLE.has(response.status)) return { kind: 'dropped', cause: error };
    throw error;
  }
  if (response.body === null) throw new RunStreamError(f.runId, 'NoBody', 'the events response has no body to read');
  return readRunStream(response.body, {
    runId: f.runId,
    last: () => f.last,
    deliver: (entry) => {
      f.last = entry.seq;
      f.subscriber.next(entry);
      return !f.subscriber.closed;
    },
  });
}

function end(f: Follower, outcome: StreamOutcome | undefined): void {
  if (outcome === undefined || f.subscriber.closed) return;
  if (outcome.kind === 'end') f.subscriber.complete();
  else if (outcome.kind === 'cancelled') f.subscriber.error(new AbortError(new Error(outcome.reason)));
  else if (outcome.kind === 'failed') f.subscriber.error(new RunStreamError(f.runId, outcome.name, outcome.message));
}

/** Waits `ms`, or less when `signal` aborts; leaves no timer behind either way. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function count(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`fromRun: ${name} must be a whole number, at least 0, got ${String(value)}`);
  return value;
}
