import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The least time between two event streams of one HTTP server: a reconnect asked for sooner waits. */
export const MCP_RECONNECT_MIN_MS = 1_000;

/** How many reconnects in a row a server may ask for sooner than {@link MCP_RECONNECT_MIN_MS}; one more closes the connection. */
export const MCP_RECONNECTS_EARLY_MAX = 5;

/**
 * `fetch` for a Streamable HTTP transport that bounds how often it reopens the server's event
 * stream (a `GET`, which is how the SDK's client reconnects): one asked for less than
 * {@link MCP_RECONNECT_MIN_MS} after the last waits until then, and when more than
 * {@link MCP_RECONNECTS_EARLY_MAX} in a row came that early, `giveUp` is told why (the
 * connection should then be closed) and the request fails. The SDK takes the server's
 * `retry` as it comes and counts no attempt when a stream ends cleanly: a server sending
 * `retry: 0` and ending each stream at once was reconnected to thousands of times a second,
 * for as long as the engine ran. A server leaving its retry to the SDK (a second, growing)
 * never comes early.
 *
 * @example
 * ```ts
 * const fetch = guardedReconnects(globalThis.fetch, (why) => void transport.close());
 * ```
 */
export function guardedReconnects(fetch: FetchLike, giveUp: (problem: string) => void): FetchLike {
  let last: number | undefined;
  let early = 0;
  return async (url, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return fetch(url, init);
    // The SDK tries a failed reconnect again even after the transport closed: no more of them.
    init?.signal?.throwIfAborted();
    const wait = last === undefined ? 0 : last + MCP_RECONNECT_MIN_MS - Date.now();
    early = wait > 0 ? early + 1 : 0;
    if (early > MCP_RECONNECTS_EARLY_MAX) {
      const problem = `it ended its event stream and asked to reconnect sooner than ${MCP_RECONNECT_MIN_MS / 1000} s ${early} times in a row`;
      giveUp(problem);
      throw new Error(problem);
    }
    // Aborted (the transport closed) while waiting: rejects at once, the timer cleared.
    if (wait > 0) await sleep(wait, undefined, init?.signal ? { signal: init.signal } : {});
    last = Date.now();
    return fetch(url, init);
  };
}
