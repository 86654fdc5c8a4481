import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The most bytes of one message an MCP server over HTTP may send: the SDK's own bound on a stdio message. */
export const MCP_MESSAGE_MAX_BYTES = 10 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
// Bodies that must be empty: `new Response` refuses one for these.
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * `fetch` for a Streamable HTTP transport, bounding what one message of the server may hold
 * in memory: an event stream may not go over `max` bytes without ending an event (a blank
 * line), any other answer over `max` in all. Past that the body fails and `overflow` is told
 * why (the connection should then be closed, as the SDK closes a stdio server whose line
 * outgrows its buffer): unbounded, an answer that never ends was read for as long as the
 * server sent it, until the process ran out of memory.
 *
 * @example
 * ```ts
 * new sdk.StreamableHTTPClientTransport(url, { fetch: boundedFetch((why) => void transport.close()) });
 * ```
 */
export function boundedFetch(overflow: (problem: string) => void, max = MCP_MESSAGE_MAX_BYTES): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.body === null || !response.ok || NULL_BODY.has(response.status)) return response;
    const stream = response.headers.get('content-type')?.includes('text/event-stream') ?? false;
    const fits = stream ? eventBytes(max) : totalBytes(max);
    const problem = `its answer went over ${max / 1024 / 1024} MiB ${stream ? 'in one event' : 'in all'}`;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (fits(chunk)) return controller.enqueue(chunk);
          overflow(problem);
          controller.error(new Error(problem));
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Whether the body so far holds at most `max` bytes. */
function totalBytes(max: number): (chunk: Uint8Array) => boolean {
  let seen = 0;
  return (chunk) => (seen += chunk.length) <= max;
}

/**
 * Whether the event stream so far has at most `max` bytes since its last event ended: the
 * SSE parser holds an unfinished line, and the `data` of an unfinished event, whole. A line
 * ends with CR, LF or CRLF; an empty line ends the event.
 */
function eventBytes(max: number): (chunk: Uint8Array) => boolean {
  let since = 0;
  let lineStart = true;
  let lastCr = false;
  return (chunk) => {
    for (const byte of chunk) {
      if (byte === LF && lastCr) {
        lastCr = false; // the LF of a CRLF: one line end
        continue;
      }
      lastCr = byte === CR;
      if (byte === LF || byte === CR) {
        if (lineStart) since = 0;
        lineStart = true;
      } else {
        lineStart = false;
        if (++since > max) return false;
      }
    }
    return true;
  };
}
