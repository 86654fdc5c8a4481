import type { ServerResponse } from 'node:http';

/**
 * Headers on every answer of the demo server (page, API, errors): no other site may frame it
 * (a framed page can be clicked through by its host: clickjacking), nothing is sniffed as
 * another type, and no address (which may hold the token) leaves in a `Referer`.
 */
const EVERY_ANSWER = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * The page's own headers: it loads nothing from elsewhere, may only talk to this server, and
 * (as every answer) may not be framed.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
} as const;

/** Sets the headers every answer carries; a `writeHead` later adds to them (the page's CSP replaces the default one). */
export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(EVERY_ANSWER)) res.setHeader(name, value);
}

/** Answers `text` as plain text. */
export function sendPlain(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(`${text}\n`);
}
