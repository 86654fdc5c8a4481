import type { Redis, RedisOptions } from 'ioredis';
import { errorMessage } from '../errors/error-message.js';
import { shownUrl } from '../text/shown-url.js';
import { loadRedis } from './load-peers.js';
import { RedisBackendError } from './redis-backend-error.js';

/**
 * How every connection of the backend behaves when Redis goes away: a command waiting for
 * it fails after one reconnect attempt (a run errors instead of hanging), while the client
 * keeps reconnecting in the background (a restarted Redis is found again).
 */
export const CONNECTION_OPTIONS: RedisOptions = {
  maxRetriesPerRequest: 1,
  retryStrategy: (times: number) => reconnectDelay(times),
  lazyConnect: true,
};

/** How long to wait before the `times`-th attempt to reconnect, in milliseconds: 50 more each time, at most a second. */
export function reconnectDelay(times: number): number {
  return Math.min(50 * times, 1000);
}

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

/**
 * A duplicate of `client` (same URL and options, `options` over them), connected, for a
 * blocking read or a subscription.
 */
export function duplicateOf(client: Redis, timeoutMs: number, options: RedisOptions = {}): Promise<Redis> {
  const copy = client.duplicate({ lazyConnect: true, ...options });
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
    throw new RedisBackendError(`cannot reach Redis at ${shownUrl(url)}: ${errorMessage(e)}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
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

/**
 * The code a script's refusal starts with (Redis reads an error reply's first word as its
 * code): what tells a refusal of the stored data or of the write, which the script says in
 * words of its own, from a failure of Redis (`WRONGTYPE`, `OOM`, `NOSCRIPT`...).
 */
const REFUSAL_CODE = 'RXHARNESS_REFUSED';

/**
 * The Lua statement by which a script of the backend refuses, `message` being a Lua
 * expression of the words: {@link redisFailure} hands them on as they are, without the
 * "Redis failed while ..." of a failure of Redis.
 *
 * @example
 * ```ts
 * `if bad then ${scriptRefusal("'the key ' .. KEYS[1] .. ' is no count'")} end`;
 * ```
 * @internal
 */
export function scriptRefusal(message: string): string {
  return `return redis.error_reply('${REFUSAL_CODE} ' .. ${message})`;
}

/**
 * Turns a failed Redis command into a `RedisBackendError` naming what was being done. A
 * refusal is no failure of Redis and is handed on unprefixed: a `RedisBackendError` the store
 * raised itself as it is, a script's refusal (see {@link scriptRefusal}) as its words alone.
 */
export function redisFailure(doing: string, e: unknown): RedisBackendError {
  if (RedisBackendError.isInstance(e)) return e;
  // Only a reply of Redis is a script's: an error of the client or the network never is.
  const refused = e instanceof Error && e.name === 'ReplyError' && e.message.startsWith(`${REFUSAL_CODE} `);
  if (refused) return new RedisBackendError(e.message.slice(REFUSAL_CODE.length + 1), { cause: e });
  return new RedisBackendError(`Redis failed while ${doing}: ${errorMessage(e)}`, { cause: e });
}
