import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { closeIfBodyUnread } from '../http/close-if-body-unread.js';

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
 * The page's own headers but its CSP (see {@link pageCsp}): HTML, never cached.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
} as const;

/**
 * The page's CSP: it loads nothing from elsewhere, may only talk to this server, may not be
 * framed (as every answer), and runs only its own inline `script` and `style`, named by their
 * SHA-256 (the exact text between the tags). No `'unsafe-inline'`: the page writes model
 * output with `textContent` only, and should a future change inject markup anyway, a script
 * or a style in it would not run. Hashes rather than a separate script route: the page stays
 * one self-contained answer, and no new route has to be let past the token check.
 *
 * @example
 * ```ts
 * res.writeHead(200, { ...PAGE_HEADERS, 'content-security-policy': pageCsp(js, css) });
 * ```
 */
export function pageCsp(script: string, style: string): string {
  return `default-src 'none'; script-src '${sha256(script)}'; style-src '${sha256(style)}'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;
}

/** A CSP hash source's value: `sha256-` and the base64 digest of the UTF-8 text. */
function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** Sets the headers every answer carries; a `writeHead` later adds to them (the page's CSP replaces the default one). */
export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(EVERY_ANSWER)) res.setHeader(name, value);
}

/** Answers `text` as plain text, closing the connection when a body may still be on its way ({@link closeIfBodyUnread}). */
export function sendPlain(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...closeIfBodyUnread(res), ...headers });
  res.end(`${text}\n`);
}
