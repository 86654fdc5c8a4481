import { errnoOf } from '../errors/errno-of.js';
import { CliUsageError } from './cli-usage-error.js';

/**
 * `error` as bad usage when it says the Redis URL could not be parsed at all (a space, a NUL):
 * Node's words are only "Invalid URL", naming neither the flag nor the form. The URL is not
 * repeated, as it may hold a password. Any other error (Redis unreachable) is returned as is.
 *
 * @param source - where the URL came from: `--redis` or `RXHARNESS_REDIS_URL`.
 * @example
 * ```ts
 * throw redisUrlUsage(new TypeError('Invalid URL'), '--redis'); // CliUsageError: --redis is not a URL ...
 * ```
 */
export function redisUrlUsage(error: unknown, source: string): unknown {
  if (errnoOf(error) !== 'ERR_INVALID_URL') return error;
  return new CliUsageError(`${source} is not a URL Redis can be reached at: give it as redis://[USER:PASSWORD@]HOST:PORT, e.g. redis://127.0.0.1:6379`);
}
