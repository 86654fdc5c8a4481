/**
 * What the Redis tests over planted or broken data plant, and what they watch: the process
 * warnings the stores emit about it (`RXHARNESS_BAD_REDIS_DATA`, by `warnBadData`).
 */
import type { Redis } from 'ioredis';
import { BAD_REDIS_DATA } from '../../src/backend/bad-data-warning.js';
import type { RedisKeys } from '../../src/backend/redis-keys.js';

/** The process warnings about bad Redis data emitted from now until `stop()`. */
export function badDataWarnings(): { readonly messages: string[]; stop(): void } {
  const messages: string[] = [];
  const listener = (warning: Error & { code?: string }): void => void (warning.code === BAD_REDIS_DATA && messages.push(warning.message));
  process.on('warning', listener);
  return { messages, stop: () => process.off('warning', listener) };
}

/** Lets the process warnings emitted so far reach their listeners (they are emitted on the next tick). */
export const warningsDelivered = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Plants both halves of a task record as `saveTaskInfo` would write them for a task `taskId`
 * of `ownerSessionId` (its record, and its id in the owner's task set), where no store wrote one.
 */
export async function plantTaskRecord(redis: Redis, keys: RedisKeys, taskId: string, ownerSessionId: string): Promise<void> {
  await redis.set(keys.taskInfo(taskId), JSON.stringify({ taskId, agentName: 'alpha', description: 'x', ownerSessionId }));
  await redis.sadd(keys.sessionTasks(ownerSessionId), taskId);
}
