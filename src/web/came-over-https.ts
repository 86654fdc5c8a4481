import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * Whether the browser reached `serve` over HTTPS: a TLS socket of our own, or the proxy in front
 * saying so in the first hop of `X-Forwarded-Proto` or `Forwarded` (`proto=https`). The login
 * cookie is then `Secure`, so a page an attacker serves on plain `http://` of the same host
 * cannot have the browser send it in clear. Trusting the header costs nothing: it can only make
 * the cookie stricter, and a page cannot set it on the user's own requests.
 *
 * @example
 * ```ts
 * cameOverHttps(req); // true behind a proxy sending `X-Forwarded-Proto: https`
 * ```
 */
export function cameOverHttps(req: IncomingMessage): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted === true) return true;
  const forwarded = firstHop(req.headers['x-forwarded-proto']);
  if (forwarded !== undefined && forwarded.trim().toLowerCase() === 'https') return true;
  const standard = firstHop(req.headers.forwarded);
  return standard !== undefined && /(?:^|;)\s*proto\s*=\s*"?https"?\s*(?:;|$)/i.test(standard);
}

/** The first (client-facing) element of a proxy header, repeated or comma-joined. */
function firstHop(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',', 1)[0];
}
