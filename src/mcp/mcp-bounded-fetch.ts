import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { cutErrorBody, MCP_ERROR_BODY_MAX_BYTES } from './mcp-error-body.js';

/** The most bytes of one message an MCP server over HTTP may send: the SDK's own bound on a stdio message. */
export const MCP_MESSAGE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * How many events without data (a keep-alive comment, an empty event) an event stream may
 * end within {@link MCP_EMPTY_EVENTS_WINDOW_MS}; one more fails it. A server keeps a stream
 * alive with one every few seconds; a stream of nothing else, as fast as the socket took it,
 * kept the engine parsing at half a core or more, for as long as the server liked.
 */
export const MCP_EMPTY_EVENTS_MAX = 1_000;

/** The window {@link MCP_EMPTY_EVENTS_MAX} counts over. */
export const MCP_EMPTY_EVENTS_WINDOW_MS = 1_000;

/**
 * The most messages a JSON answer that is a batch (a JSON array) may hold. The SDK parses the
 * whole answer and hands each message on: a batch of 200,000 answers to no request held the
 * event loop before any guard of ours saw one of them.
 */
export const MCP_BATCH_MAX_MESSAGES = 1_000;

const LF = 0x0a;
const CR = 0x0d;
// Bodies that must be empty: `new Response` refuses one for these.
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * `fetch` for a Streamable HTTP transport, bounding what one message of the server may hold
 * in memory: an event stream may not go over `max` bytes without ending an event (a blank
 * line), nor end more than {@link MCP_EMPTY_EVENTS_MAX} events without data a second; any
 * other answer may not go over `max` in all, nor be a batch of more than
 * {@link MCP_BATCH_MAX_MESSAGES} messages. Past that the body fails and `overflow` is told
 * why (the connection should then be closed, as the SDK closes a stdio server whose line
 * outgrows its buffer): unbounded, an answer that never ends was read for as long as the
 * server sent it, until the process ran out of memory. An event stream is told as the SDK
 * tells it: the answer to a `GET` (the server's stream of its own messages) is one whatever
 * its type, any other answer by its media type alone (`application/json; x="text/event-stream"`
 * is JSON to the SDK, and so bounded as JSON). An answer with an error status is cut at
 * {@link MCP_ERROR_BODY_MAX_BYTES}, saying so (the SDK puts its text in the error).
 *
 * @example
 * ```ts
 * new sdk.StreamableHTTPClientTransport(url, { fetch: boundedFetch((why) => void transport.close()) });
 * ```
 */
export function boundedFetch(overflow: (problem: string) => void, max = MCP_MESSAGE_MAX_BYTES): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.body === null || NULL_BODY.has(response.status)) return response;
    if (!response.ok) return withBody(response, cutErrorBody(response.body));
    // Loaded with the SDK already (the transport calling this is the SDK's).
    const { mediaTypeEssence } = await import('@modelcontextprotocol/sdk/shared/mediaType.js');
    // The SDK reads the answer to its GET (the server's own stream) as events whatever its type.
    const stream = (init?.method ?? 'GET').toUpperCase() === 'GET' || mediaTypeEssence(response.headers.get('content-type')) === 'text/event-stream';
    const tooMuch = stream ? eventProblem(max) : both(totalProblem(max), batchProblem());
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const problem = tooMuch(chunk);
          if (problem === undefined) return controller.enqueue(chunk);
          overflow(problem);
          controller.error(new Error(problem));
        },
      }),
    );
    return withBody(response, body);
  };
}

/**
 * `response` with `body` instead of its own. Its `url` is kept: the SDK resolves the target of
 * a redirect it did not follow (a 3xx is not `ok`, so cut) against it.
 */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const rebuilt = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  return Object.defineProperty(rebuilt, 'url', { value: response.url });
}

/** Why the body so far is too much: over `max` bytes; undefined while it is not. */
function totalProblem(max: number): (chunk: Uint8Array) => string | undefined {
  let seen = 0;
  return (chunk) => ((seen += chunk.length) <= max ? undefined : `its answer went over ${max / 1024 / 1024} MiB in all`);
}

/** Both checks of a body: the first one's problem, else the second's. */
function both(first: (chunk: Uint8Array) => string | undefined, second: (chunk: Uint8Array) => string | undefined): (chunk: Uint8Array) => string | undefined {
  return (chunk) => first(chunk) ?? second(chunk);
}

const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

const BOM = [0xef, 0xbb, 0xbf]; // UTF-8's byte order mark: `response.json()` drops it first

/**
 * Why a JSON body so far is too much: a batch (its first character past a byte order mark and
 * blanks is `[`) of more than {@link MCP_BATCH_MAX_MESSAGES} messages, counted by the commas
 * between them (not in a string, nor deeper in). A body of one message is looked at up to
 * its first character.
 */
function batchProblem(): (chunk: Uint8Array) => string | undefined {
  let state: 'start' | 'batch' | 'done' = 'start';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let messages = 1;
  let bom = 0; // the bytes of a BOM the body began with; its length once past them
  return (chunk) => {
    for (let i = 0; i < chunk.length && state !== 'done'; i++) {
      const byte = chunk[i]!;
      if (state === 'start') {
        // Only first of all, as the decoder drops it (JSON allows none after a blank).
        if (bom < BOM.length && byte === BOM[bom]) {
          bom++;
          continue;
        }
        bom = BOM.length;
        if (byte === 0x20 || byte === 0x09 || byte === LF || byte === CR) continue;
        state = byte === 0x5b ? 'batch' : 'done';
        depth = 1;
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (OPEN.has(byte)) depth++;
      else if (CLOSE.has(byte) && --depth === 0) state = 'done';
      else if (byte === COMMA && depth === 1 && ++messages > MCP_BATCH_MAX_MESSAGES) {
        state = 'done';
        return `its answer is a batch of more than ${MCP_BATCH_MAX_MESSAGES} messages`;
      }
    }
    return undefined;
  };
}

const DATA = [0x64, 0x61, 0x74, 0x61]; // "data": a line starting so gives its event data

/**
 * Why the event stream so far is too much: over `max` bytes since its last event ended (the
 * SSE parser holds an unfinished line, and the `data` of an unfinished event, whole), or
 * more than {@link MCP_EMPTY_EVENTS_MAX} events without data ended within a window (each
 * costs a parse, and gives nothing). A line ends with CR, LF or CRLF; an empty line ends
 * the event. Undefined while it is not.
 */
function eventProblem(max: number): (chunk: Uint8Array) => string | undefined {
  let since = 0;
  let lineLength = 0;
  let lastCr = false;
  let dataLine = false;
  let eventHasData = false;
  let windowStart = Number.NEGATIVE_INFINITY;
  let empty = 0;
  const tooManyEmpty = (): boolean => {
    const now = Date.now();
    if (now - windowStart >= MCP_EMPTY_EVENTS_WINDOW_MS) {
      windowStart = now;
      empty = 0;
    }
    return ++empty > MCP_EMPTY_EVENTS_MAX;
  };
  return (chunk) => {
    for (const byte of chunk) {
      if (byte === LF && lastCr) {
        lastCr = false; // the LF of a CRLF: one line end
        continue;
      }
      lastCr = byte === CR;
      if (byte !== LF && byte !== CR) {
        dataLine = lineLength < 4 ? (lineLength === 0 || dataLine) && byte === DATA[lineLength] : dataLine;
        lineLength++;
        if (++since > max) return `its answer went over ${max / 1024 / 1024} MiB in one event`;
        continue;
      }
      if (lineLength > 0) {
        eventHasData ||= dataLine && lineLength >= 4;
        lineLength = 0;
        continue;
      }
      // An empty line: the event ends.
      since = 0;
      if (!eventHasData && tooManyEmpty()) return `its event stream ended more than ${MCP_EMPTY_EVENTS_MAX} events without data (keep-alive comments) within ${MCP_EMPTY_EVENTS_WINDOW_MS / 1000} s`;
      eventHasData = false;
    }
    return undefined;
  };
}
