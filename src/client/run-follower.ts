/**
 * The connections behind {@link fromRun}: one at a time to a run's event stream, each from
 * after the last seq delivered, made again when one drops (with a growing wait, up to a
 * count of failures in a row), and dropped when it goes silent. What a connection reads is
 * read-run-stream.ts's; how the last outcome ends the Observable is from-run.ts's.
 *
 * @module
 */
import type { Subscriber } from 'rxjs';
import type { SequencedEvent } from '../runs/run-types.js';
import { RunConnectionError, RunStreamError } from './client-errors.js';
import { readRunStream, type StreamOutcome } from './read-run-stream.js';
import { requestError, runUrl, wrongAnswer, type RequestOptions } from './run-requests.js';
import { Watchdog } from './watchdog.js';

/** The longest wait between two connections: past it, doubling only delays a server that is back. */
const MAX_DELAY_MS = 10_000;
/** Statuses worth trying again: the server or a proxy is busy or restarting. Any other is final. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/** One following of a run: where it is, what it sends with, and who gets the events. @internal */
export interface Follower {
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

/** Connects until the run ends (or is cancelled or fails); undefined when the consumer left first. @internal */
export async function follow(f: Follower, maxRetries: number, retryDelayMs: number): Promise<StreamOutcome | undefined> {
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
  // The position as `?after=`, never `Last-Event-ID`: the server answers an EventSource's
  // reconnect at or past a run's ending `204` (no ending frame), and a follower, whatever
  // position it was given, must still tell whether the run ended, was cancelled or failed. The
  // ending frame's `id:` is no seq and is never read here. A 204 here (not from runsHandler) stays an error.
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
    // A dev server or proxy answering its page for every path: no stream to retry, and not a lost connection.
    const type = response.headers.get('content-type');
    if (!isEventStream(type)) {
      await response.body?.cancel().catch(() => undefined);
      throw wrongAnswer(200, `the answer is ${type === null ? 'of no content-type' : JSON.stringify(type.slice(0, 100))}, not an event stream (text/event-stream)`, `GET ${url}`);
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

/** Whether a `content-type` is `text/event-stream` (any parameters, any case), as an `EventSource` requires. */
function isEventStream(type: string | null): boolean {
  return type?.split(';', 1)[0]!.trim().toLowerCase() === 'text/event-stream';
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
