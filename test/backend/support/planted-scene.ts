/**
 * The scene of a Redis session-store test over planted data: the block's backend, its raw
 * client and keys (to plant with), its session store, and the bad-data warnings of the test,
 * whose listener is removed after it.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import type { RedisBackend } from '../../../src/backend/redis-backend.js';
import type { RedisKeys } from '../../../src/backend/redis-keys.js';
import { badDataWarnings } from '../planted-data.js';
import type { RedisBackendFixture } from '../redis-backend-per-file.js';

/** What a test plants with and watches; see {@link plantedScenesPerTest}. */
export interface PlantedScene {
  readonly backend: RedisBackend;
  /** The backend's own client, for writing what no store would. */
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: RedisBackend['sessions'];
  /** The bad-data warnings emitted since the scene was made. */
  readonly warnings: ReturnType<typeof badDataWarnings>;
}

/**
 * Registers the `afterEach` that stops every warning listener a scene started, and returns the
 * maker of a test's scene on `redisFile`'s backend. Call inside the `describe` that made `redisFile`.
 */
export function plantedScenesPerTest(redisFile: RedisBackendFixture): () => PlantedScene {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });
  return () => {
    const { backend } = redisFile;
    const warnings = badDataWarnings();
    stops.push(warnings.stop);
    return { backend, redis: backend.parts.redis, keys: backend.parts.keys, store: backend.sessions, warnings };
  };
}

/** Stores a conversation `conv` (one `hi`) with one task `task` of it, whose transcript is a `secret`. */
export async function conversationWithTask(store: RedisBackend['sessions'], conv: string, task: string, description: string): Promise<void> {
  await store.append(conv, [{ role: 'user', content: 'hi' }]);
  await store.saveTaskInfo({ taskId: task, agentName: 'alpha', description, ownerSessionId: conv });
  await store.append(task, [{ role: 'user', content: 'secret' }]);
}
