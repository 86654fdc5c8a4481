import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A token is token68 (RFC 7235): safe in a header, a cookie and a query without escaping. */
const TOKEN_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Shorter tokens are refused: someone on the network could guess them. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * A new secret token: 24 random bytes as base64url (32 characters), as Jupyter does.
 *
 * @example
 * ```ts
 * const token = newServeToken(); // 'k3J0...'
 * ```
 */
export function newServeToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Checks a token given by the user (`--token`, `RXHARNESS_TOKEN`, the `token` option):
 * returns it, or throws a `TypeError` saying what a token must be.
 *
 * @example
 * ```ts
 * checkServeToken(process.env.RXHARNESS_TOKEN!, 'RXHARNESS_TOKEN');
 * ```
 */
export function checkServeToken(token: string, source: string): string {
  if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH || token.length > 512 || !TOKEN_SYNTAX.test(token)) {
    throw new TypeError(
      `${source} must be a secret of ${MIN_TOKEN_LENGTH} to 512 characters from A-Z a-z 0-9 - . _ ~ + / (e.g. the output of "openssl rand -base64 24"), got ${typeof token === 'string' ? `${token.length} characters` : typeof token}`,
    );
  }
  return token;
}

/**
 * The name of the cookie that keeps the token for the server on `port`. Browsers share a
 * host's cookies between its ports, so two servers on one machine need two names.
 */
export function tokenCookieName(port: number): string {
  return `rxharness-token-${port}`;
}

/**
 * Whether `req` carries `token`: as `Authorization: Bearer <token>` or in the cookie
 * `cookieName`. Compared in constant time (hashes of equal length), so the answer's timing
 * says nothing about how much of a guess was right.
 */
export function requestHasToken(req: IncomingMessage, token: string, cookieName: string): boolean {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer !== undefined && sameSecret(bearer, token)) return true;
  // Every cookie of that name: a page on another port of this host can set one of the same
  // name with a longer path, which the browser then sends first (RFC 6265 5.4); reading only
  // the first would let any such page lock the user's page out.
  return cookieValues(req.headers.cookie, cookieName).some((cookie) => sameSecret(cookie, token));
}

/** Whether `given` equals `secret`, in time that depends on neither. */
export function sameSecret(given: string, secret: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** The values of every cookie `name` in a `Cookie` header, in its order. */
function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) values.push(pair.slice(at + 1).trim());
  }
  return values;
}
