import { withheldCredentials, type RemoteCredentials } from './remote-credentials.js';
import { sseLines } from './sse-lines.js';

/**
 * The most bytes of a remote A2A agent's answer read when it is not the task's event stream:
 * the agent card, a JSON-RPC answer (`tasks/cancel`), an error page. 1 MiB: a card is
 * typically a few KB, far below it, and these bodies are read whole into
 * memory, so a remote (or a card URL naming a hostile host) that sends without end would
 * otherwise grow the process without bound. The event stream has its own limits instead
 * (updates, characters, the SDK's per-event size, the idle timeout).
 */
export const MAX_A2A_BODY_BYTES = 1 << 20;

/**
 * The `fetch` every request to a remote A2A agent goes through: it adds the headers
 * `credentials` give for the request's URL and `signal` (unless the request has its own), and
 * it refuses, with an error naming the URL:
 * - a URL that is not http(s) (a card naming `file:`, `data:` or `javascript:` as its JSON-RPC
 *   endpoint): `fetch` would read a `data:` URL's own text as the remote's answer, and fail on the
 *   others with only "fetch failed"; nothing is asked of `credentials` for it;
 * - a redirect: `fetch` would follow it carrying headers decided for the first URL (Node drops
 *   only `authorization` across origins; `x-api-key` and the like would reach the new host),
 *   so none is followed (`redirect: 'manual'`): the definition (or the card) should name the final URL;
 * - a 401 or 403 to a request sent without credentials because its definition is an untrusted
 *   workspace one, saying so and how to trust it;
 * - a body other than the task's event stream past {@link MAX_A2A_BODY_BYTES}: its reading
 *   stops there and the connection is closed.
 *
 * The event stream is handed on in whole lines ending in `\n`, which the SDK's reader needs,
 * whether the remote ends them with `\r\n`, `\n` or `\r` (all three are SSE); see `sseLines`.
 */
export function remoteFetch(credentials: RemoteCredentials, signal: AbortSignal): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const url = input instanceof Request ? input.url : String(input);
    if (!isHttp(url)) {
      throw new Error(`${clip(url)} is not an http(s) URL: only http(s) is used to reach a remote agent (check the agent card's JSON-RPC url)`);
    }
    for (const [name, value] of await credentials.headersFor(url)) headers.set(name, value);
    const response = await fetch(input, { ...init, headers, redirect: 'manual', signal: init?.signal ?? signal });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const to = response.headers.get('location');
      throw new Error(
        `${url} redirected (${response.status}) ${to === null ? 'without a location' : `to ${to}`}: redirects are not followed, so that ` +
          "credentials meant for one URL never reach another; use the URL it redirects to in its place (the definition's a2a, or the card's JSON-RPC URL)",
      );
    }
    if ((response.status === 401 || response.status === 403) && credentials.untrustedFile !== undefined) {
      await response.body?.cancel();
      throw new Error(withheldCredentials(url, response.status, credentials.untrustedFile));
    }
    return isEventStream(headers, response) ? wholeLines(response) : capped(response, url, MAX_A2A_BODY_BYTES);
  };
}

/** The task's event stream: asked for (only `message/stream` asks for one) and given. Anything else is capped, a card calling itself an event stream included. */
function isEventStream(request: Headers, response: Response): boolean {
  const eventStream = (type: string | null) => type?.toLowerCase().startsWith('text/event-stream') ?? false;
  return response.ok && eventStream(request.get('accept')) && eventStream(response.headers.get('content-type'));
}

/** The task's event stream in whole lines, each ending in `\n` whatever the remote ends it with (see `sseLines`). */
function wholeLines(response: Response): Response {
  if (response.body === null) return response;
  return new Response(response.body.pipeThrough(sseLines()), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** `response` whose body errors (and stops being read) past `limit` bytes, whatever its `Content-Length` says. */
function capped(response: Response, url: string, limit: number): Response {
  const body = response.body;
  if (body === null) return response; // no body (a 204): nothing to read
  const reader = body.getReader();
  let read = 0;
  const limited = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) return controller.close();
      read += chunk.value.byteLength;
      if (read <= limit) return controller.enqueue(chunk.value);
      controller.error(new Error(`${url} sent an answer over ${limit} bytes, more than an agent card or a JSON-RPC answer needs: its reading was stopped`));
      await reader.cancel(); // closes the connection: the rest is never received
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function isHttp(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A URL short enough for an error message: a `data:` URL may be megabytes long. */
function clip(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}... (${url.length} characters)` : url;
}
