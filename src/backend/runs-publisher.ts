/**
 * The write side of the shared runs (`RedisSharedRuns`): each change is stored in Redis and
 * announced on the runs channel in one transaction, so a message never arrives before what
 * it announces is stored. That order is what lets the other engines check a message against
 * Redis before they believe it (runs-channel.ts): anyone with access to the Redis can publish.
 *
 * @module
 */
import type { ChainableCommander, Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';
import type { OwnedRecord } from './run-record.js';
import { CANCEL_MARK_MS, type RunMessage } from './runs-channel.js';

/** Writes the shared runs' changes to Redis with their runs-channel messages. @internal */
export class RunsPublisher {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Stores a run's record in the runs hash (read by the engines that start later) and sends it. */
  put(record: OwnedRecord): void {
    this.#send({ op: 'put', record }, this.redis.multi().hset(this.keys.runs, record.info.runId, JSON.stringify(record)));
  }

  /** Takes a run's record out of the runs hash before its message: the others forget it once they find it gone. */
  forget(runId: string): void {
    this.#send({ op: 'forget', runId }, this.redis.multi().hdel(this.keys.runs, runId));
  }

  /** Marks a run cancelled before its message: the owner reads the marker back before it cancels. */
  cancel(runId: string): void {
    this.#send({ op: 'cancel', runId }, this.redis.multi().set(this.keys.runCancelled(runId), '1', 'PX', CANCEL_MARK_MS));
  }

  #send(message: RunMessage, write: ChainableCommander): void {
    // Fire and forget, like the registry's own bookkeeping: a lost update only makes another
    // engine's copy stale, and a dead Redis is reported by the reads and writes of runs.
    write.publish(this.keys.runsChannel, JSON.stringify(message)).exec().catch(() => undefined);
  }
}
