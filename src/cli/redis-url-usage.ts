import { CliUsageError } from './cli-usage-error.js';

/** The form a Redis URL is given in, for the messages. */
const FORM = 'give it as redis://[USER:PASSWORD@]HOST:PORT, e.g. redis://127.0.0.1:6379';

/** Every form taken, for a value that is none of them (and for no value at all: the worker's message). */
export const REDIS_URL_FORMS_SAID = `${FORM} (rediss:// for TLS), or as HOST:PORT, a port, or the absolute path of a Unix socket`;

/** `HOST:PORT`, the host a name, an IPv4 address or a bracketed IPv6 address (`[::1]:6379`). */
const HOST_PORT = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/;

/**
 * Throws bad usage unless `url` is a form ioredis reaches Redis at, checked before anything
 * connects: a `redis://` or `rediss://` URL that parses (Node says only "Invalid URL" of a
 * space or a NUL, naming neither the flag nor the form), an absolute path (a Unix socket,
 * which has no `redis://` form), `HOST:PORT` or a port (1 to 65535). Anything else is
 * refused: ioredis would read a bare word (`notaurl`, a mistyped variable) as a host name,
 * and the user would be told Redis cannot be reached at it. The URL is never repeated, as it
 * may hold a password.
 *
 * @param source - where the URL came from: `--redis` or `RXHARNESS_REDIS_URL`.
 * @example
 * ```ts
 * checkRedisUrl('/var/run/redis/redis.sock', '--redis'); // accepted: a socket
 * checkRedisUrl('notaurl', '--redis'); // CliUsageError: --redis is not a Redis URL, socket or HOST:PORT: give it as ...
 * ```
 */
export function checkRedisUrl(url: string, source: string): void {
  if (/^rediss?:\/\//i.test(url)) {
    // The parse ioredis makes of such a URL: what fails here would fail there.
    if (!URL.canParse(url)) throw new CliUsageError(`${source} is not a URL Redis can be reached at: ${FORM}`);
    return;
  }
  if (isSocketPath(url) || isPort(url) || isHostPort(url)) return;
  throw new CliUsageError(`${source} is not a Redis URL, socket or HOST:PORT: ${REDIS_URL_FORMS_SAID}`);
}

/** An absolute path (ioredis connects to it as a Unix socket); `//host` is a URL without scheme, not a path. */
function isSocketPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//') && !url.includes('\0');
}

function isPort(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65_535;
}

/** `HOST:PORT` as ioredis reads it (it puts `redis://` before it): the same parse must succeed. */
function isHostPort(url: string): boolean {
  const port = HOST_PORT.exec(url)?.[1];
  return port !== undefined && isPort(port) && URL.canParse(`redis://${url}`);
}
