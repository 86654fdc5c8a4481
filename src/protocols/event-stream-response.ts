import type { ServerResponse } from 'node:http';
import { writeSseHeaders } from '../adapters/sse-headers.js';
import { sseWriter } from '../adapters/sse-writer.js';

/** A backlog a client may leave unread before it is cut: far more than any run's burst. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** A server-sent-event response of JSON messages. */
export interface EventStreamResponse {
  /** Writes one `data: <JSON>` message (nothing once the response has ended or closed). */
  send(message: unknown): void;
  /** Ends the response after the queued messages, with `last` as its final frame (default none). */
  end(last?: string): void;
}

/**
 * Starts a `200 text/event-stream` answer on `res` (`writeSseHeaders`) with `headers` added, and `: keep-alive`
 * comments every `keepAliveMs` (0: none) so proxies keep the connection while the model
 * thinks. Writes honour backpressure (`sseWriter`); a client whose unread backlog passes
 * 8 MiB is cut, and so is one that has not read the rest 30 s after `end`.
 */
export function eventStreamResponse(res: ServerResponse, headers: Readonly<Record<string, string>>, keepAliveMs: number): EventStreamResponse {
  writeSseHeaders(res, headers);
  const writer = sseWriter(res, MAX_QUEUED_BYTES);
  const timer = keepAliveMs > 0 ? setInterval(() => writer.blocked || writer.write(': keep-alive\n\n'), keepAliveMs) : undefined;
  timer?.unref();
  res.once('close', () => clearInterval(timer));
  return {
    send(message) {
      if (!writer.write(`data: ${JSON.stringify(message)}\n\n`)) res.destroy();
    },
    end(last = '') {
      clearInterval(timer);
      writer.end(last);
    },
  };
}
