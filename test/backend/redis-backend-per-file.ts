/**
 * A real `redis-server` and a {@link RedisBackend} on it for one `describe` block: started
 * before its first test, closed (the backend, then the server) after its last. It replaces
 * the `beforeAll`/`afterAll` pair each Redis store test wrote out.
 *
 * @module
 */
import { afterAll, beforeAll } from 'vitest';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { startRedis, type RedisServer } from './redis-server.js';

/** The server and the backend of the current block; read them inside tests (they start in `beforeAll`). */
export interface RedisBackendFixture {
  /** The running `redis-server`. */
  readonly redis: RedisServer;
  /** A backend on it, its keys under the block's prefix. */
  readonly backend: RedisBackend;
}

/**
 * Registers the `beforeAll` that starts a server and a backend (keys under `prefix`, kept
 * `retentionMs`) and the `afterAll` that closes both. Call inside a `describe.skipIf(!HAS_REDIS)`.
 */
export function redisBackendPerFile(prefix: string, retentionMs: number): RedisBackendFixture {
  let redis: RedisServer | undefined;
  let backend: RedisBackend | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix, retentionMs });
  });
  afterAll(async () => {
    await backend?.close();
    await redis?.stop();
  });
  return {
    get redis() {
      return redis!;
    },
    get backend() {
      return backend!;
    },
  };
}
