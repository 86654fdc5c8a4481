import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** How long a client of `rxharness serve` may take to send its request (the answer is not cut). */
export interface ServeTimeouts {
  /** A request's headers must all arrive within this (a client trickling them, or sending nothing, holds a socket). */
  readonly headersMs: number;
  /** A whole request (headers and body; not the answer, so event streams are not cut) must arrive within this. */
  readonly requestMs: number;
}

/** `serve`'s timeouts (docs/http.md): 10 s for the headers, 30 s for the whole request. */
export const SERVE_TIMEOUTS: ServeTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/**
 * How often Node looks for connections past those timeouts. It cuts none between two looks,
 * and its default look is every 30 s: a socket trickling headers or saying nothing lived some
 * 30 s whatever the headers timeout, so a flood of unfinished heads held its memory three
 * times as long. One look a second keeps each timeout within a second of what it says.
 */
const CHECK_EVERY_MS = 1_000;

/**
 * The most bytes of a request's headers (Node's default: 16 KiB, answered `431` above). A
 * browser sends every cookie of the host to every port of it, so a page of another local
 * server can plant cookies (4 KB each) that push the page's requests over 16 KiB with five.
 * 64 KiB takes some fifteen such cookies besides the page's own, while a client trickling headers
 * still holds little memory per connection (for the headers timeout, and a second, at most). No bound
 * takes them all (a browser keeps some 180 per host): past it the page says how to clear them.
 */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * The HTTP server of `rxharness serve`, not listening yet: headers up to 64 KiB, and a client
 * too slow to send its request ({@link ServeTimeouts}) is answered `408` and its connection
 * closed, within a second of the timeout.
 *
 * @param timeouts - default {@link SERVE_TIMEOUTS}; tests pass short ones to see them fire
 */
export function createServeServer(listener: (req: IncomingMessage, res: ServerResponse) => void, timeouts: ServeTimeouts = SERVE_TIMEOUTS): Server {
  return createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: CHECK_EVERY_MS,
    },
    listener,
  );
}
