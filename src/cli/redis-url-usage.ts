import { CliUsageError } from './cli-usage-error.js';

/** The form a Redis URL is given in, for the messages. */
const FORM = 'give it as redis://[USER:PASSWORD@]HOST:PORT, e.g. redis://127.0.0.1:6379';

/**
 * Throws bad usage unless `url` is a Redis URL: it starts with `redis://` or `rediss://` and
 * parses. Checked before anything connects: ioredis reads a word without that scheme as a host
 * name (`notaurl`, a mistyped variable) or a port, and the user would be told Redis cannot be
 * reached at it; and Node says only "Invalid URL" (a space, a NUL), naming neither the flag nor
 * the form. The URL is never repeated, as it may hold a password.
 *
 * @param source - where the URL came from: `--redis` or `RXHARNESS_REDIS_URL`.
 * @example
 * ```ts
 * checkRedisUrl('notaurl', '--redis'); // CliUsageError: --redis is not a Redis URL (it must start with redis://, or rediss:// for TLS): give it as ...
 * ```
 */
export function checkRedisUrl(url: string, source: string): void {
  if (!/^rediss?:\/\//i.test(url)) {
    throw new CliUsageError(`${source} is not a Redis URL (it must start with redis://, or rediss:// for TLS): ${FORM}`);
  }
  // The parse ioredis makes of such a URL: what fails here would fail there.
  if (!URL.canParse(url)) throw new CliUsageError(`${source} is not a URL Redis can be reached at: ${FORM}`);
}
