import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

/**
 * Whether the app instance `owner` has no heartbeat (its key, beaten by its dead-owner sweep,
 * expired two stall intervals after its last beat, `lapseMs`, or was deleted as it closed):
 * its engine is gone, and nobody will end what it ran.
 * The one test of it, for the sweep and for a wait that gives up on a cancel.
 *
 * @example
 * ```ts
 * if (await instanceGone(redis, keys, 'instance_x')) await tasks.reap(taskId, stallMs);
 * ```
 */
export async function instanceGone(redis: Redis, keys: RedisKeys, owner: string): Promise<boolean> {
  return (await redis.exists(keys.instance(owner))) === 0;
}
