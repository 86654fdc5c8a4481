import type { IncomingMessage, ServerResponse } from 'node:http';
import { Subscription, throwError, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/index.js';

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
}

const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** The largest delay `setInterval` honours; above it Node fires after 1 ms instead. */
const MAX_TIMER_MS = 2_147_483_647;
const HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // nginx buffers proxied responses unless told not to, which would hold events back
  'x-accel-buffering': 'no',
} as const;

/**
 * Streams a run to an HTTP response as server-sent events: each event is a message
 * `id: <n>` / `data: <json>`; `: keep-alive` comments keep the connection open; the stream's
 * completion sends `event: end` (data `{}`), its error sends `event: error` with data
 * `{"name","message"}`, and then the response ends. If the client disconnects first, the run
 * is unsubscribed (aborted) and the keep-alive timer cleared. Unsubscribing the returned
 * subscription does the same and ends the response without an `end` message.
 *
 * A browser `EventSource` reconnects when a response ends: close it on `end` and `error`,
 * or each reconnection starts a new run.
 *
 * @example
 * ```ts
 * http.createServer((req, res) => {
 *   streamSse(res, engine.stream(new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? ''), { request: req });
 * }).listen(8080);
 * ```
 */
export function streamSse(
  res: ServerResponse,
  events$: Observable<AgentEvent>,
  options: SseOptions = {},
): Subscription {
  const keepAliveMs = checkKeepAlive(options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
  const subscription = new Subscription();
  if (!res.headersSent) res.writeHead(200, HEADERS);
  res.flushHeaders();

  const finish = (frame: string): void => {
    if (!res.writableEnded && !res.destroyed) res.end(frame);
    subscription.unsubscribe();
  };
  if (keepAliveMs > 0) {
    const timer = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
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
  subscription.add(() => {
    if (!res.writableEnded && !res.destroyed) res.end();
  });
  if (res.destroyed) {
    subscription.unsubscribe();
    return subscription;
  }

  let id = 0;
  subscription.add(
    events$.subscribe({
      next: (event) => {
        id += 1;
        res.write(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
      },
      error: (error: unknown) => finish(`event: error\ndata: ${JSON.stringify(errorPayload(error))}\n\n`),
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
  return (req, res) => {
    let events$: Observable<AgentEvent>;
    try {
      events$ = factory(req);
    } catch (error) {
      events$ = throwError(() => error);
    }
    streamSse(res, events$, { ...options, request: req });
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

function errorPayload(error: unknown): { name: string; message: string } {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}
