/**
 * Counts heartbeats: the `SET … PX` renewals of BullMQ's lock on a job (a worker's heartbeat
 * on it) or of an app instance's key (`RedisKeys.instance`), seen through Redis keyspace
 * notifications (turned on for string commands on the test's own server). Heartbeats are
 * events, so a test can say "the job still ran for two heartbeats", or hold a model's answer
 * until several stall intervals have passed, instead of timing it: on a loaded machine the
 * heartbeats slow down with everything else, and the test waits for as many.
 *
 * @module
 */
import { connectRedis } from '../../src/backend/redis-connection.js';
import type { RedisKeys } from '../../src/backend/redis-keys.js';

/** A running count of the `SET`s of the keys watched. */
export interface Heartbeats {
  /** The beats seen since the count started (a job's first lock counts too). */
  count(): number;
  /** Resolves once `n` more beats than now were seen. */
  after(n: number): Promise<void>;
  /** Stops counting (closes its connection). */
  close(): void;
}

/** How many beats a job lock gets per stall interval (the worker renews it every quarter, `lockRenewTime`). */
export const LOCK_BEATS_PER_STALL = 4;

/** How many beats an app instance's key gets per stall interval (every third, see `dead-owner-sweep.ts`). */
export const INSTANCE_BEATS_PER_STALL = 3;

/** The pattern of every job lock of the backend with `keys` (see `RedisKeys.jobLock`). */
export const anyJobLock = (keys: RedisKeys): string => keys.jobLock('*');

/**
 * Starts counting the beats of the keys matching `pattern` (a key, or a glob such as
 * {@link anyJobLock}) on the Redis at `url`; close it when done.
 */
export async function heartbeats(url: string, pattern: string): Promise<Heartbeats> {
  const conn = await connectRedis(url, 5000);
  await conn.config('SET', 'notify-keyspace-events', 'K$');
  let seen = 0;
  const waiting = new Set<{ at: number; resolve: () => void }>();
  conn.on('pmessage', (_pattern: string, _channel: string, op: string) => {
    if (op !== 'set') return;
    seen++;
    for (const w of waiting) if (seen >= w.at) (waiting.delete(w), w.resolve());
  });
  await conn.psubscribe(`__keyspace@0__:${pattern}`);
  return {
    count: () => seen,
    after: (n) => new Promise((resolve) => waiting.add({ at: seen + n, resolve })),
    close: () => conn.disconnect(),
  };
}
