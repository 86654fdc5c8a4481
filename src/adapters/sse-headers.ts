import type { ServerResponse } from 'node:http';

/**
 * The headers of every server-sent-event answer rxharness writes (`streamSse`, the runs
 * routes' `GET /runs/:id/events`, the AG-UI, chat and A2A streams), so a browser or a proxy
 * sees the same answer whichever route it follows:
 *
 * - `cache-control: no-store`: no cache (the browser's, a proxy's, a CDN's) keeps a run's
 *   events, which are private and live; `no-store` already forbids storing, so `no-cache`
 *   would add nothing. `no-transform`: a proxy must not recompress the stream, since a
 *   compressing proxy holds events back until it has a block to compress.
 * - `x-accel-buffering: no`: nginx buffers proxied answers unless told not to, which would
 *   hold events back.
 *
 * No `connection` header: Node writes its own, `keep-alive` to an HTTP/1.1 client, `close`
 * when the client asked for it or the server is closing. A forced `keep-alive` overrode
 * both, and held a connection whose client had asked to close it open until the idle timeout.
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
});

/**
 * Starts a `200` server-sent-event answer on `res` with {@link SSE_HEADERS} (plus `extra`,
 * e.g. a protocol's own marker header; `extra` cannot replace them) and sends the headers at
 * once, so a client sees the stream open before the first event. The only place rxharness
 * writes SSE headers. Does nothing but flush if the headers were already sent.
 *
 * @example
 * ```ts
 * writeSseHeaders(res, { 'x-vercel-ai-ui-message-stream': 'v1' });
 * res.write('data: {}\n\n');
 * ```
 */
export function writeSseHeaders(res: ServerResponse, extra: Readonly<Record<string, string>> = {}): void {
  if (!res.headersSent) res.writeHead(200, { ...extra, ...SSE_HEADERS });
  res.flushHeaders();
}
