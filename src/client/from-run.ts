import { Observable, type Subscriber } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import { MAX_REPLY_CHARS } from '../model/reply-limit.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { RunConnectionError, RunStreamError } from './client-errors.js';
import { readRunStream, type StreamOutcome } from './read-run-stream.js';
import { requestError, requestHeaders, runUrl, type RequestOptions } from './run-requests.js';
import { Watchdog } from './watchdog.js';

/** Options of {@link fromRun}. */
export interface FromRunOptions extends RequestOptions {
  /** Start after this seq (default 0: from the run's first event). */
  readonly after?: number;
  /** How many connections in a row may fail (without one new event) before giving up with a `RunConnectionError`; default 6. */
  readonly maxRetries?: number;
  /** The wait before the first reconnection, in milliseconds, doubled after each further failure (at most 10 s); default 250. */
  readonly retryDelayMs?: number;
  /**
   * How long a connection may bring nothing (no whole event, no keep-alive comment: the bytes
   * of a message that never ends do not count) before it is taken for dead, dropped and made
   * again (counting as a failure, like any drop), in milliseconds; 0: wait forever. Default
   * 45,000: three of the server's 15 s keep-alives.
   */
  readonly idleTimeoutMs?: number;
  /**
   * The most characters one message may hold before the stream is refused with a
   * `RunStreamError` (`MessageTooLarge`); default 56 Mi (58,720,256): the `RunEnd` of the
   * longest answer the engine takes from a model (8 Mi characters), however JSON escapes it.
   */
  readonly maxMessageLength?: number;
}

const MAX_DELAY_MS = 10_000;
/** Three keep-alives of a `runsHandler` (one every 15 s by default): two may be late, not three. */
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
/** The most characters JSON writes for one character of a string: `\u001f` for a control character, or a lone surrogate. */
const JSON_CHARS_PER_CHAR = 6;
/**
 * The longest message a run may send: its `RunEnd` carries the whole answer, which may be
 * {@link MAX_REPLY_CHARS} characters (the engine's cap on one reply) and, in the worst case
 * (quotes, control characters), six times as long as JSON; as much again as the answer
 * leaves room for the rest of the event (its metrics, an error, the `TaskWrap`s around a
 * task's). Still a bound: a stream that never ends a message is refused past it.
 */
const DEFAULT_MAX_MESSAGE_LENGTH = MAX_REPLY_CHARS * (JSON_CHARS_PER_CHAR + 1);
/** Statuses worth trying again: the server or a proxy is busy or restarting. Any other is final. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Follows a run of a `runsHandler` server: its events (`{ runId, seq, event }`) from the one
 * after `after`, each exactly once and in order, then it completes after the run's `RunEnd`.
 * It reads the server-sent events over `fetch` (a streamed body; no `EventSource`, so no
 * reconnection can ever start a run). When the connection drops it reconnects from the last
 * seq it delivered, waiting `retryDelayMs`, then twice as long each time, and gives up with a
 * {@link RunConnectionError} after `maxRetries` failures in a row; a connection that brings
 * an event resets the count, and one silent for `idleTimeoutMs` counts as a failure. A final
 * answer is not retried: an unknown run errors with a `404` {@link RunRequestError}, a
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
  const after = count('after', options.after ?? 0);
  const maxRetries = count('maxRetries', options.maxRetries ?? 6);
  const retryDelayMs = count('retryDelayMs', options.retryDelayMs ?? 250);
  const idleTimeoutMs = count('idleTimeoutMs', options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  const maxMessageLength = count('maxMessageLength', options.maxMessageLength ?? DEFAULT_MAX_MESSAGE_LENGTH, 1);
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
      (outcome) => end(follower, outcome),
      (error: unknown) => controller.signal.aborted || subscriber.error(error),
    );
    return () => {
      given?.removeEventListener('abort', giveUp);
      controller.abort();
    };
  });
}

interface Follower {
  readonly baseUrl: string;
  readonly runId: string;
  readonly fetch: NonNullable<RequestOptions['fetch']>;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Where the consumer asked to start. */
  readonly after: number;
  last: number;
  readonly idleTimeoutMs: number;
  readonly maxMessageLength: number;
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

/**
 * One connection, from after the last seq delivered; dropped when it brings no whole message
 * or comment for `idleTimeoutMs`.
 */
async function connect(f: Follower): Promise<StreamOutcome> {
  const url = `${runUrl(f.baseUrl, f.runId, 'events')}?after=${f.last}`;
  const connection = new AbortController();
  const leave = (): void => connection.abort(f.signal.reason);
  f.signal.addEventListener('abort', leave, { once: true });
  const silent = `the connection brought nothing for ${f.idleTimeoutMs} ms (no whole event, no keep-alive comment: idleTimeoutMs)`;
  const watchdog = new Watchdog(f.idleTimeoutMs, () => connection.abort(new Error(silent)));
  try {
    let response: Response;
    try {
      response = await f.fetch(url, { headers: f.headers, signal: connection.signal });
    } catch (error) {
      // the network, our own abort (checked by the caller), or the watchdog's
      return { kind: 'dropped', cause: connection.signal.aborted ? connection.signal.reason : error };
    }
    if (response.status !== 200) {
      const error = await requestError(response, `GET ${url}`);
      if (RETRYABLE.has(response.status)) return { kind: 'dropped', cause: error };
      throw error;
    }
    if (response.body === null) throw new RunStreamError(f.runId, 'NoBody', 'the events response has no body to read', 'client');
    return await readRunStream(response.body, {
      runId: f.runId,
      maxMessageLength: f.maxMessageLength,
      signal: connection.signal,
      last: () => f.last,
      deliver: (entry) => {
        f.last = entry.seq;
        f.subscriber.next(entry);
        return !f.subscriber.closed;
      },
      alive: () => watchdog.restart(),
    });
  } finally {
    watchdog.stop();
    f.signal.removeEventListener('abort', leave);
  }
}

function end(f: Follower, outcome: StreamOutcome | undefined): void {
  if (outcome === undefined || f.subscriber.closed) return;
  if (outcome.kind === 'run-end') f.subscriber.complete();
  // A bare `end` is right only for a consumer that asked to start past the RunEnd and was given nothing.
  else if (outcome.kind === 'end' && f.last === f.after && f.after > 0) f.subscriber.complete();
  else if (outcome.kind === 'end') f.subscriber.error(new RunStreamError(f.runId, 'NoRunEnd', 'the server ended the stream without the run\'s RunEnd', 'client'));
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

function count(name: string, value: number, least = 0): number {
  if (!Number.isSafeInteger(value) || value < least) throw new RangeError(`fromRun: ${name} must be a whole number, at least ${least}, got ${String(value)}`);
  return value;
}
