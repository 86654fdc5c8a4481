import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * The Redis backend cannot do what was asked: an optional peer (`ioredis`, `bullmq`) is not
 * installed, Redis cannot be reached, or it went away while a run was reading or writing.
 * Failing with this instead of waiting is what keeps a run from hanging on a dead Redis.
 *
 * @example
 * ```ts
 * await redisBackend({ url: 'redis://127.0.0.1:1' }).catch((e) => RedisBackendError.isInstance(e)); // true
 * ```
 */
export class RedisBackendError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'REDIS_BACKEND';
  /** Always `RedisBackendError`. */
  override readonly name = 'RedisBackendError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
