import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Whether a request for the page might prefill its prompt box for another site: it carries
 * `prompt` and the browser does not say (`Sec-Fetch-Site`) that the user started the
 * navigation. Another site can time the navigation to a double-click it asks for, so that the
 * second click lands on Run (double-clickjacking): its prompt must not be there. A typed
 * address or a bookmark is `none`, a link of the page's own `same-origin`: they keep the
 * prompt. Without the header the prompt goes too: Chromium sends none to an origin it does
 * not trust (plain `http` on a LAN address), so its absence proves nothing, and a client that
 * is not a browser never shows the page. `same-site` counts as another site: every other port
 * of `127.0.0.1` is the same site.
 */
export function crossSitePrefill(req: IncomingMessage, url: URL): boolean {
  const site = req.headers['sec-fetch-site'];
  return url.searchParams.has('prompt') && site !== 'same-origin' && site !== 'none';
}

/** Sends the browser to the same page without `prompt` (the rest of the address, `?session=`, `?run=`, kept). */
export function redirectWithoutPrompt(url: URL, res: ServerResponse): void {
  url.searchParams.delete('prompt');
  res.writeHead(303, { location: `/${url.search}`, 'cache-control': 'no-store' });
  res.end();
}
