import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObservable, Subscription, throwError, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/index.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { checkSource } from './check-source.js';
import { DEFAULT_DRAIN_TIMEOUT_MS } from './drain-deadline.js';
import { writeSseHeaders } from './sse-headers.js';
import { sseWriter } from './sse-writer.js';
import { wireJson } from '../text/wire-json.js';

/** Options of {@link streamSse}. */
export interface SseOptions {
  /**
   * Milliseconds between `: keep-alive` comment lines, which stop proxies from closing an
   * idle connection while the model thinks. Default 15 000; 0 turns them off.
   */
  readonly keepAliveMs?: number;
  /**
   * The request being answered. When given, its `close` also counts as the client leaving
   * (only once the connection is really gone: a request body being read to its end closes
   * the request too, and must not abort the run).
   */
  readonly request?: IncomingMessage;
  /**
   * How many bytes may wait for a client that reads slower than the run writes, beyond what
   * the socket itself holds. Past it the client is cut: the run is unsubscribed (aborted) and
   * the connection destroyed. Default 4 MiB (4,194,304).
   */
  readonly maxBufferedBytes?: number;
  /**
   * Milliseconds a client has, once the stream has ended (run over, or unsubscribed), to
   * read the messages still waiting for it; past it the connection is destroyed, so a client
   * that stopped reading holds no socket after its run. Default 30 000.
   */
  readonly drainTimeoutMs?: number;
}

const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * Streams a run to an HTTP response as server-sent events (a sink: the stream first, then
 * the response, then options; it throws a `TypeError` when the first argument is not an
 * Observable, before writing anything). Each event is a message
 * `id: <n>` / `data: <json>`; `: keep-alive` comments keep the connection open; the stream's
 * completion sends `event: end` (data `{}`), its error sends `event: error` with data
 * `{"name","message"}`, and then the response ends. If the client disconnects first, the run
 * is unsubscribed (aborted) and the keep-alive timer cleared. Unsubscribing the returned
 * subscription does the same and ends the response without an `end` message. An event that
 * cannot be serialised (a cycle, a `BigInt`, `undefined`) ends the run as an error. Line
 * breaks of every convention (U+2028, U+2029 and NEL too), controls and format characters
 * in the JSON are written as `\uXXXX` escapes, so one event is always one `data:` line.
 *
 * The messages of one turn of the event loop go out in one `res.write` (at the turn's end,
 * at most about 5 ms late, or at once when they reach 16 KiB), not one write per event.
 *
 * Backpressure: while the socket is full, messages wait in order and go out on `'drain'`
 * (keep-alives are skipped meanwhile). A run cannot be paused, so if more than
 * `maxBufferedBytes` wait, the client is cut: the run is unsubscribed and the connection
 * destroyed, with no `end` or `error` message (a client that does not read would not get it).
 * Once the stream has ended, a client gets `drainTimeoutMs` to read what still waits, then
 * its connection is destroyed too.
 *
 * A browser `EventSource` reconnects when a response ends: close it on `end` and `error`,
 * or each reconnection starts a new run.
 *
 * @example
 * ```ts
 * http.createServer((req, res) => {
 *   streamSse(engine.stream(new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? ''), res, { request: req });
 * }).listen(8080);
 * ```
 */
export function streamSse(
  events$: Observable<AgentEvent>,
  res: ServerResponse,
  options: SseOptions = {},
): Subscription {
  checkSource(events$, 'streamSse(events$, res, options)');
  const keepAliveMs = checkKeepAlive(options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
  const maxBufferedBytes = checkMaxBufferedBytes(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES);
  const drainTimeoutMs = checkDrainTimeout(options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
  const subscription = new Subscription();
  writeSseHeaders(res);
  const writer = sseWriter(res, maxBufferedBytes, drainTimeoutMs);

  // Set by finish(): the response ends after the queued messages and the last frame.
  let ending = false;
  const finish = (frame: string): void => {
    ending = true;
    writer.end(frame);
    subscription.unsubscribe();
  };
  const cut = (): void => {
    subscription.unsubscribe();
    res.destroy();
  };
  if (keepAliveMs > 0) {
    // a full socket is not an idle connection: no comment is queued behind real messages
    const timer = setInterval(() => {
      if (!writer.blocked) writer.write(': keep-alive\n\n');
    }, keepAliveMs);
    timer.unref();
    subscription.add(() => clearInterval(timer));
  }
  const onClose = (): void => subscription.unsubscribe();
  res.on('close', onClose);
  subscription.add(() => res.off('close', onClose));
  const request = options.request;
  if (request !== undefined) {
    const onRequestClose = (): void => {
      if (request.socket.destroyed) subscription.unsubscribe();
    };
    request.on('close', onRequestClose);
    subscription.add(() => request.off('close', onRequestClose));
  }
  // unsubscribed from outside (or cut): end after what is already queued, with no end message
  subscription.add(() => ending || writer.end(''));
  if (res.destroyed) {
    subscription.unsubscribe();
    return subscription;
  }

  let id = 0;
  subscription.add(
    events$.subscribe({
      next: (event) => {
        // a synchronous source keeps emitting until subscribe() returns, even after a cut
        if (subscription.closed) return;
        let data: string | undefined;
        try {
          // one `data:` line whatever the text holds: no raw line break of any convention
          data = wireJson(event);
        } catch (error) {
          return finish(errorFrame(error));
        }
        if (data === undefined) return finish(errorFrame(new TypeError(`The run emitted a value (${typeof event}) that has no JSON, so it is not an event`)));
        id += 1;
        if (!writer.write(`id: ${id}\ndata: ${data}\n\n`)) cut();
      },
      error: (error: unknown) => finish(errorFrame(error)),
      complete: () => finish('event: end\ndata: {}\n\n'),
    }),
  );
  return subscription;
}

/**
 * Makes a Node request handler that streams the run `factory` builds for each request as
 * server-sent events (see {@link streamSse}). It works with `http.createServer`, Express
 * (`app.get('/run', handler)`) and Fastify's raw objects (`handler(request.raw, reply.raw)`,
 * after `reply.hijack()`). A factory that throws answers with an `event: error` message.
 *
 * @example
 * ```ts
 * const handler = sseHandler((req) => {
 *   const prompt = new URL(req.url ?? '/', 'http://localhost').searchParams.get('prompt');
 *   if (!prompt) throw new Error('Add ?prompt=... to the URL');
 *   return engine.stream(prompt);
 * });
 * http.createServer(handler).listen(8080);
 * ```
 */
export function sseHandler(
  factory: (req: IncomingMessage) => Observable<AgentEvent>,
  options: Omit<SseOptions, 'request'> = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  checkKeepAlive(options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
  checkMaxBufferedBytes(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES);
  checkDrainTimeout(options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
  return (req, res) => {
    let events$: Observable<AgentEvent>;
    try {
      events$ = factory(req);
      // answered as an `event: error`, not thrown out of the server's request listener
      if (!isObservable(events$)) throw new TypeError('The sseHandler factory must return an Observable of events');
    } catch (error) {
      events$ = throwError(() => error);
    }
    streamSse(events$, res, { ...options, request: req });
  };
}

function checkKeepAlive(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_TIMER_MS) {
    throw new RangeError(
      `keepAliveMs must be a number of milliseconds from 0 (off) to ${MAX_TIMER_MS}, got ${String(ms)}`,
    );
  }
  return ms;
}

function checkDrainTimeout(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_TIMER_MS) {
    throw new RangeError(`drainTimeoutMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${String(ms)}`);
  }
  return ms;
}

function checkMaxBufferedBytes(bytes: number): number {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new RangeError(`maxBufferedBytes must be a whole number of bytes, at least 0, got ${String(bytes)}`);
  }
  return bytes;
}

function errorFrame(error: unknown): string {
  // an error's message is often model or tool text: escaped as the events are (two strings always have JSON)
  return `event: error\ndata: ${wireJson(errorPayload(error))!}\n\n`;
}

function errorPayload(error: unknown): { name: string; message: string } {
  try {
    return error instanceof Error ? { name: String(error.name), message: String(error.message) } : { name: 'Error', message: String(error) };
  } catch {
    // an error whose name, message or toString throws must not throw out of the subscriber
    return { name: 'Error', message: 'The run failed with an error that cannot be described' };
  }
}
