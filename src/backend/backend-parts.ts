import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChannelHub } from './channel-hub.js';
import type { RedisEventLog } from './redis-event-log.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * What the launchers and workers of one backend share: its connections, key names and
 * times. Internal: users hold the `RedisBackend`.
 *
 * @internal
 */
export interface BackendParts {
  readonly url: string;
  /** The command connection. */
  readonly redis: Redis;
  /** The subscriber connection. */
  readonly hub: ChannelHub;
  readonly keys: RedisKeys;
  readonly eventLog: RedisEventLog;
  /** The heartbeats' rhythm: a worker or an app instance silent for two of them (`lapseMs`) is taken for dead. */
  readonly stallMs: number;
  readonly connectTimeoutMs: number;
  /** The task queue, made on first use. */
  queue(): Promise<Queue>;
}
