import { RedisResultKeys } from './redis-result-keys.js';

export { TASK_QUEUE } from './redis-task-keys.js';

/**
 * The names of everything the backend keeps in Redis, under one prefix so several
 * deployments (or tests) can share a server. BullMQ's own keys go under `<prefix>:bull`.
 * One class, its names grouped by concern: sessions (redis-session-keys.ts), runs
 * (redis-run-keys.ts), tasks (redis-task-keys.ts), background results (redis-result-keys.ts).
 */
export class RedisKeys extends RedisResultKeys {}
