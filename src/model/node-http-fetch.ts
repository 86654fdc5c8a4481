import http, { type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import zlib from 'node:zlib';
import { NodeHttpResponse } from './node-http-response.js';
import { requestHeaders, type HeadTarget } from './request-headers.js';
import { cancelOf } from './request-cancel.js';

/**
 * How long an idle kept-alive socket is kept: under the 5 s a Node server (and most others)
 * keeps one, so a reused socket is rarely one the server is closing; a server's own
 * `Keep-Alive: timeout=N` shortens it (Node's agent honours that hint only when this is set).
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * The agents shared by every model of the process: kept-alive sockets, reused across the
 * requests of all runs. No cap on sockets per server, as with fetch: the engine's
 * `maxConcurrentRequests` is the bound, and a cap here would queue requests unseen, inside
 * their timeout. An idle socket is unref'd by the agent, so it never keeps the process alive.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, maxFreeSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, maxFreeSockets: 256 }),
} as const;

/** A request's target as `http.request` takes it, parsed once per URL string. */
interface Target extends HeadTarget {
  readonly protocol: string;
  readonly href: string;
  /** Host, port, path and credentials of the URL; frozen, since every request to it shares it. */
  readonly options: Readonly<RequestOptions>;
}

/**
 * The targets of the URLs asked so far: a model sends every request to the same URL, which
 * need not be parsed (`new URL`, then `urlToHttpOptions`) again each time. Bounded: past
 * {@link MAX_TARGETS} distinct URLs it starts over, and a URL only costs its parse again.
 */
const targets = new Map<string, Target>();
const MAX_TARGETS = 256;

/** The target of `input`, from the cache when it is a URL string seen before. */
function targetOf(input: string | URL | Request): Target {
  const known = typeof input === 'string' ? targets.get(input) : undefined;
  if (known) return known;
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  // A plain copy: Node's object has no prototype and slow properties, which made copying it into each request's options cost microseconds.
  const options = Object.freeze({ ...urlToHttpOptions(url) });
  const basicAuth = options.auth ? `Basic ${Buffer.from(options.auth).toString('base64')}` : undefined;
  const target: Target = { protocol: url.protocol, href: url.href, options, host: url.host, basicAuth };
  if (typeof input === 'string') {
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(input, target);
  }
  return target;
}

/** The error an aborted request rejects with: the signal's reason, else (a cancel) an `AbortError` (the openai client reads a timeout from it). */
export function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** The request body as bytes or text; what a chat request sends is a JSON string. */
function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('the node:http model transport sends text and byte bodies only (a chat request is JSON); pass your own `client` for uploads');
}

/** The body decompressed as its `content-encoding` says; the message itself when it is not encoded. */
function decodedBody(message: IncomingMessage): Readable {
  const encoding = message.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    : encoding === 'deflate' ? zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
    : encoding === 'br' ? zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
    : undefined;
  if (!decoder) return message;
  return pipeline(message, decoder, () => undefined);
}

/**
 * A `fetch` for the `openai` client over `node:http` / `node:https` and kept-alive agents,
 * resolving to a {@link NodeHttpResponse}. What it saves over the global fetch (undici and
 * WHATWG streams) is the per-request `Request`/`Response` machinery and web-stream copies
 * and promises per chunk (docs/performance.md §11). Aborting `init.signal` destroys the
 * request and its socket, before or after the headers. gzip, deflate and br bodies are
 * decoded. Redirects are not followed: a 3xx reaches the client as the error it is (a model
 * request is a POST, which a redirect would turn into a GET). Like Node's fetch, it ignores
 * `HTTP(S)_PROXY`.
 *
 * @example
 * ```ts
 * const client = new OpenAI({ baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'none', fetch: nodeHttpFetch });
 * ```
 */
export const nodeHttpFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const target = targetOf(input);
  const agent = target.protocol === 'https:' ? agents['https:'] : target.protocol === 'http:' ? agents['http:'] : undefined;
  if (!agent) return Promise.reject(new TypeError(`the model transport speaks http and https only, not ${target.protocol} (${target.href})`));
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  // rxharness's own requests are cancelled through this (see RequestCancel), the client's timeout through `signal`.
  const cancel = cancelOf(init);
  if (cancel?.aborted) return Promise.reject(abortError(undefined));
  try {
    const body = bodyOf(init.body);
    const method = init.method ?? 'GET';
    return send(target, method, requestHeaders(init.headers, method, body, target), body, agent, signal, cancel);
  } catch (error) {
    return Promise.reject(error);
  }
};

/**
 * Sends the request and resolves with its response once the headers come. The listeners,
 * which live as long as the response streams, close over none of the body (it is used only
 * by this function itself, after they are made): a chat request's JSON (7 KiB and more)
 * would otherwise stay in memory for the whole reply, twice a delegating run
 * (docs/performance.md §11, "Stop 35").
 */
function send(
  target: Target,
  method: string,
  headers: string[],
  body: string | Uint8Array | undefined,
  agent: http.Agent,
  signal: AbortSignal | null | undefined,
  cancel: ReturnType<typeof cancelOf>,
): Promise<Response> {
  // The same options Node makes of a URL and these (`http.request(url, options)`), without parsing the URL again.
  const request = (target.protocol === 'https:' ? https : http).request({ ...target.options, method, headers, agent });
  const response = new Promise<Response>((resolve, reject) => {
    // Before the headers the promise rejects; after them the body stream errors and closes.
    const onAbort = (): void => {
      const reason = abortError(signal?.aborted ? signal : undefined);
      request.destroy(reason instanceof Error ? reason : undefined);
      reject(reason);
    };
    // rxharness's own request brings the client's timeout along: a timer here rather than a
    // listener added to and removed from the client's signal, which nothing else aborts (two
    // EventTarget calls, a few µs, per request).
    const timeoutMs = cancel?.headersTimeoutMs;
    const timer = timeoutMs === undefined ? undefined : setTimeout(onAbort, timeoutMs);
    if (timer === undefined) signal?.addEventListener('abort', onAbort, { once: true });
    const forgetCancel = cancel?.onAbort(onAbort);
    const release = (): void => {
      if (timer === undefined) signal?.removeEventListener('abort', onAbort);
      else clearTimeout(timer);
      forgetCancel?.();
    };
    // `on`, not `once`: a request may fail twice (a destroy after a socket error), and an unheard error would throw.
    request.on('error', (error) => {
      release();
      reject(error);
    });
    request.once('response', (message) => {
      clearTimeout(timer); // a timeout for the headers only, as the client's
      message.once('close', release);
      resolve(new NodeHttpResponse(message, decodedBody(message), target.href) as unknown as Response);
    });
  });
  try {
    request.end(body);
  } catch (error) {
    // As a failed send: through 'error', which releases the listeners and rejects the response.
    request.destroy(error instanceof Error ? error : new Error(String(error)));
  }
  return response;
}

/** The agent a URL's requests go through (tests count its sockets). */
export function agentFor(protocol: 'http:' | 'https:'): http.Agent {
  return agents[protocol];
}
