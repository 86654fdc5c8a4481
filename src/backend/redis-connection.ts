import type { Redis, RedisOptions } from 'ioredis';
import { errorMessage } from '../errors/error-message.js';
import { loadRedis } from './load-peers.js';
import { RedisBackendError } from './redis-backend-error.js';

/**
 * How every connection of the backend behaves when Redis goes away: a command waiting for
 * it fails after one reconnect attempt (a run errors instead of hanging), while the client
 * keeps reconnecting in the background (a restarted Redis is found again).
 */
export const CONNECTION_OPTIONS: RedisOptions = {
  maxRetriesPerRequest: 1,
  retryStrategy: (times: number) => Math.min(50 * times, 1000),
  lazyConnect: true,
};

/**
 * A ready connection to `url`, or a `RedisBackendError` saying Redis cannot be reached
 * after `timeoutMs` (the client is closed then: nothing is left reconnecting).
 */
export async function connectRedis(url: string, timeoutMs: number, options: RedisOptions = {}): Promise<Redis> {
  const Redis = await loadRedis();
  const client = new Redis(url, { ...CONNECTION_OPTIONS, connectTimeout: timeoutMs, ...options });
  // Without a listener, ioredis prints each failed reconnect; the commands report failures.
  client.on('error', () => undefined);
  return readyOrFail(client, url, timeoutMs);
}

/** A duplicate of `client` (same URL and options), connected, for a blocking read or a subscription. */
export function duplicateOf(client: Redis, timeoutMs: number): Promise<Redis> {
  const copy = client.duplicate({ lazyConnect: true });
  copy.on('error', () => undefined);
  return readyOrFail(copy, redactedUrl(client), timeoutMs);
}

async function readyOrFail(client: Redis, url: string, timeoutMs: number): Promise<Redis> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return client;
  } catch (e) {
    client.disconnect();
    throw new RedisBackendError(`cannot reach Redis at ${redact(url)}: ${errorMessage(e)}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A Redis URL without its password, for messages and the worker's banner: the user part
 * ends at the authority's last `@` (a password may hold `@`, as the URL parser reads it),
 * and a `password` query parameter (which ioredis reads too) is hidden as well. A user
 * part without `:` is hidden whole: older clients read `redis://secret@host` as a password.
 *
 * @example
 * ```ts
 * redact('redis://app:p@ss@cache:6379/0?password=x'); // 'redis://app:***@cache:6379/0?password=***'
 * ```
 */
export function redact(url: string): string {
  return url
    .replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?([^/?#]*)@/i, (_, scheme: string | undefined, user: string) => {
      const colon = user.indexOf(':');
      return `${scheme ?? ''}${colon === -1 ? '***' : `${user.slice(0, colon)}:***`}@`;
    })
    .replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/**
 * Where `client` connects, for a message: its Unix socket's path (ioredis fills in
 * `localhost:6379` for host and port then, which it never asks), else its host and port.
 * Built from the options, never from the URL given: no password or query is shown.
 */
function redactedUrl(client: Redis): string {
  const { path, host, port } = client.options;
  if (path) return path;
  return `redis://${host ?? '?'}:${port ?? '?'}`;
}

/** Turns a failed Redis command into a `RedisBackendError` naming what was being done. */
export function redisFailure(doing: string, e: unknown): RedisBackendError {
  if (RedisBackendError.isInstance(e)) return e;
  return new RedisBackendError(`Redis failed while ${doing}: ${errorMessage(e)}`, { cause: e });
}
