import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunsRequestHandler } from '../http/runs-handler.js';
import { cameOverHttps } from './came-over-https.js';
import { crossSitePrefill, redirectWithoutPrompt } from './cross-site-prefill.js';
import type { DemoPage } from './demo-page.js';
import { closeIfBodyUnread } from '../http/close-if-body-unread.js';
import { PAGE_HEADERS, sendPlain, setSecurityHeaders } from './serve-headers.js';
import { requestHasToken, sameSecret } from './serve-token.js';
import { trustedHost } from './trusted-host.js';

/** What the demo server's requests are answered with. */
export interface DemoRoutes {
  /** The page: its HTML and the CSP that lets its own inline script and style run. */
  readonly page: DemoPage;
  /** The runs routes under `/api` (`fallthrough: true`). */
  readonly runs: RunsRequestHandler;
  /** More routes behind the same token, tried in order after the runs routes (the protocol handlers, `fallthrough: true`). */
  readonly protocols?: readonly RunsRequestHandler[];
  /** The secret every request but the page's must carry. */
  readonly token: string;
  /** The cookie the page keeps it in. */
  readonly cookieName: string;
  /** Whether to refuse requests not addressed to a loopback name (a loopback bind: no DNS rebinding). */
  readonly checkHost: boolean;
}

/** Says how to get in: a `401` that names the two ways. */
const NO_TOKEN =
  'this server needs its token: open the address "rxharness serve" printed (it ends in ?token=...), or send "Authorization: Bearer <token>"';

/**
 * The demo server's request handler. Every answer carries the headers of `serve-headers.ts`.
 * `GET /` is the page, for anyone (it holds no secret and starts nothing by itself; a
 * `?prompt=` of a navigation another site started is dropped by a redirect, see `cross-site-prefill.ts`);
 * `GET /?token=<token>` keeps the token in an `HttpOnly; SameSite=Strict` cookie and
 * redirects to the same address without it, so the token leaves the address bar and the
 * history. The cookie's `Path` is `/api`, the page's only routes: browsers send a cookie of
 * `127.0.0.1` to every port of it, so the path keeps it off every other local server's
 * pages, though not off their `/api` (docs/http.md, "Security of serve"). Every other request (the API, and any other path) needs the token, in the cookie
 * or as `Authorization: Bearer`, else `401`.
 */
export function demoRequestHandler(routes: DemoRoutes): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // A throw here would be an uncaught exception in the server's listener: the whole process
    // (every run, every page) would die of one request, which any web page can send.
    try {
      answer(routes, req, res);
    } catch {
      if (res.headersSent) res.destroy();
      else sendPlain(res, 500, 'The server could not answer this request.');
    }
  };
}

/** Every answer of {@link demoRequestHandler}; may throw, which the handler turns into a 500. */
function answer(routes: DemoRoutes, req: IncomingMessage, res: ServerResponse): void {
  setSecurityHeaders(res);
  // Node keeps the first of several Host headers; a proxy before it may go by another, so the
  // check below would read a name other than the one the request was routed by (RFC 9112: 400).
  if ((req.headersDistinct.host?.length ?? 0) > 1) return sendPlain(res, 400, 'The request has more than one Host header.');
  if (routes.checkHost && !trustedHost(req.headers.host)) return sendPlain(res, 403, 'This server answers only requests for localhost.');
  const url = pathOf(req.url);
  if (!url) return sendPlain(res, 400, 'The request target is not a path the server can read (a target that begins with "//" names a host).');
  const isPage = url.pathname === '/' && (req.method === 'GET' || req.method === 'HEAD');
  // before the login: its redirect would carry the prompt on
  if (isPage && crossSitePrefill(req, url)) return redirectWithoutPrompt(url, res);
  if (isPage && url.searchParams.has('token')) return logIn(routes, url, req, res);
  if (isPage) {
    res.writeHead(200, { ...PAGE_HEADERS, 'content-security-policy': routes.page.csp });
    res.end(req.method === 'HEAD' ? undefined : routes.page.html);
    return;
  }
  if (!requestHasToken(req, routes.token, routes.cookieName)) return refuse(res);
  if (routes.runs(req, res)) return;
  if (routes.protocols?.some((handler) => handler(req, res))) return;
  if (url.pathname !== '/') return sendPlain(res, 404, `Not found: ${url.pathname.slice(0, 200)}. The page is at /.`);
  sendPlain(res, 405, `Only GET is supported (got ${req.method ?? '?'}).`, { allow: 'GET' });
}

/**
 * The request target as a URL, or undefined when it is none: a target that begins with `//`
 * reads as an authority (`//a:b` is a host with a bad port), and `new URL` throws on it.
 */
function pathOf(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/**
 * `GET /?token=...`: the right token becomes a cookie and leaves the address; a wrong one is
 * refused. Reached over HTTPS (a proxy in front), the cookie is `Secure` (see `cameOverHttps`).
 */
function logIn(routes: DemoRoutes, url: URL, req: IncomingMessage, res: ServerResponse): void {
  if (!sameSecret(url.searchParams.get('token') ?? '', routes.token)) {
    return sendPlain(res, 401, 'The token in this address is wrong: open the address "rxharness serve" printed.');
  }
  url.searchParams.delete('token');
  res.writeHead(303, {
    location: `/${url.search}`,
    'set-cookie': `${routes.cookieName}=${routes.token}; HttpOnly; SameSite=Strict; Path=/api${cameOverHttps(req) ? '; Secure' : ''}`,
    'cache-control': 'no-store',
  });
  res.end();
}

function refuse(res: ServerResponse): void {
  const body = JSON.stringify({ error: NO_TOKEN });
  res.writeHead(401, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'www-authenticate': 'Bearer realm="rxharness"',
    'content-length': String(Buffer.byteLength(body)),
    // a body that trickles in would keep the socket: no token, no reading it
    ...closeIfBodyUnread(res),
  });
  res.end(body);
}
