/**
 * A real `http` server for the current test, and the raw sockets the test opened to it:
 * both closed after each test. Optionally counts what each response was asked to write, on
 * the real `ServerResponse` (the streaming tests' batching and backpressure checks).
 *
 * @module
 */
import http, { type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

/** What a real response was asked to do. */
export interface ResponseCounts {
  /** Calls of `res.write`. */
  writes: number;
  /** Characters handed to `res.write` and `res.end`. */
  chars: number;
  /** Calls of `res.end`. */
  ends: number;
  /** The most bytes the response held unsent, sampled before each write. */
  maxBacklog: number;
  /** The last response served. */
  res?: ServerResponse;
}

/** The current test's server; see {@link httpServerPerTest}. */
export interface ServerPerTest {
  /** The server the current test started, until it is closed. */
  readonly server: Server | undefined;
  /** Starts a real server on 127.0.0.1 answering with `handler`; resolves to its base URL. */
  serve(handler: RequestListener): Promise<string>;
  /** Like {@link ServerPerTest.serve}, counting each response's `write` and `end` calls before `handler` sees it. */
  serveCounted(handler: RequestListener): Promise<{ url: string; counts: ResponseCounts }>;
  /** Closes the server now, and every connection it still has (a test that serves several in turn). */
  closeServer(): Promise<void>;
  /** Destroys `socket` after the test; returns it. */
  track(socket: Socket): Socket;
}

/** Wraps `res.write` and `res.end` so that each call is counted in `counts`. */
function countCalls(res: ServerResponse, counts: ResponseCounts): void {
  counts.res = res;
  const write = res.write.bind(res) as (chunk: string) => boolean;
  res.write = ((chunk: string) => {
    counts.writes += 1;
    counts.chars += chunk.length;
    counts.maxBacklog = Math.max(counts.maxBacklog, res.writableLength);
    return write(chunk);
  }) as typeof res.write;
  const end = res.end.bind(res) as (chunk?: string) => ServerResponse;
  res.end = ((chunk?: string) => {
    counts.ends += 1;
    counts.chars += chunk?.length ?? 0;
    return end(chunk);
  }) as typeof res.end;
}

/**
 * Registers the `afterEach` that destroys the tracked sockets and closes the server, and
 * returns the way to start one. Call once at the top of a test file.
 */
export function httpServerPerTest(): ServerPerTest {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  const closeServer = async (): Promise<void> => {
    const open = server;
    server = undefined;
    if (!open) return;
    open.closeAllConnections();
    await new Promise<void>((resolve) => open.close(() => resolve()));
  };
  const serve = (handler: RequestListener): Promise<string> => {
    const started = http.createServer(handler);
    server = started;
    return new Promise((resolve) => {
      started.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(started.address() as AddressInfo).port}`));
    });
  };
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await closeServer();
  });
  return {
    get server() {
      return server;
    },
    serve,
    async serveCounted(handler) {
      const counts: ResponseCounts = { writes: 0, chars: 0, ends: 0, maxBacklog: 0 };
      const url = await serve((req, res) => {
        countCalls(res, counts);
        handler(req, res);
      });
      return { url, counts };
    },
    closeServer,
    track(socket) {
      sockets.push(socket);
      return socket;
    },
  };
}
