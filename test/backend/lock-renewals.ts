/**
 * Counts a worker's heartbeats on one job: the renewals of BullMQ's lock on it, seen through
 * Redis keyspace notifications (turned on for string commands on the test's own server).
 * Heartbeats are events, so a test can say "the job still ran for two heartbeats" instead of
 * timing it.
 *
 * @module
 */
import { connectRedis } from '../../src/backend/redis-connection.js';

/** A running count of the `SET`s of a lock key. */
export interface LockRenewals {
  /** The renewals seen since the count started. */
  count(): number;
  /** Stops counting (closes its connection). */
  close(): void;
}

/** Starts counting the renewals (`SET … PX`) of `lockKey` on the Redis at `url`. */
export async function lockRenewals(url: string, lockKey: string): Promise<LockRenewals> {
  const conn = await connectRedis(url, 5000);
  await conn.config('SET', 'notify-keyspace-events', 'K$');
  let seen = 0;
  conn.on('message', (_channel: string, op: string) => {
    if (op === 'set') seen++;
  });
  await conn.subscribe(`__keyspace@0__:${lockKey}`);
  return { count: () => seen, close: () => conn.disconnect() };
}
