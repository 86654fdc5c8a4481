import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import type { RecordedRequest } from './types.js';

/** A `RecordedRequest` the server may still update. */
export type MutableRecordedRequest = { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };

/**
 * One request/response pair in progress. `signal` aborts when the connection closes,
 * which cancels every pending wait so no timer outlives the response.
 */
export interface Exchange {
  readonly res: ServerResponse;
  readonly signal: AbortSignal;
  readonly record: MutableRecordedRequest;
}

/** Waits `ms`; resolves `false` instead when the exchange ends first (the timer is cleared). */
export async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Writes `text` and resolves once it is flushed or the exchange ends, whichever is first. */
export function write(exchange: Exchange, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (exchange.signal.aborted) return resolve();
    const done = (): void => {
      exchange.signal.removeEventListener('abort', done);
      resolve();
    };
    exchange.signal.addEventListener('abort', done, { once: true });
    exchange.res.write(text, done);
  });
}

/**
 * Resolves on the event loop's next turn, after timers and I/O had their go. A write the
 * socket takes at once calls back on the microtask queue, so a long run of them (a reply of
 * millions of characters into a roomy loopback buffer) would otherwise hold the loop for
 * seconds: the client in the same process, and every timer, would wait for the whole reply.
 */
export async function yieldToLoop(): Promise<void> {
  await nextTurn();
}

/** Sends the status line and headers (with an `x-request-id`, like OpenAI), and records the status. */
export function writeHead(exchange: Exchange, status: number, headers: Readonly<Record<string, string>>): void {
  exchange.record.status = status;
  exchange.res.writeHead(status, { 'x-request-id': `req_fake_${exchange.record.index}`, ...headers });
}

/** Sends a whole JSON response. */
export function sendJson(
  exchange: Exchange,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (exchange.signal.aborted) return;
  writeHead(exchange, status, { 'content-type': 'application/json', ...headers });
  exchange.res.end(JSON.stringify(body));
}
