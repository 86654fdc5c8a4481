import type { BackendParts } from './backend-parts.js';
import { REDIS_NOW } from './redis-clock.js';
import { lapseMs } from './worker-lapse.js';

/*
 * Both scripts read Redis's own clock (`REDIS_NOW`), so a worker's beat and a launcher's count
 * compare times of one clock: app and worker machines whose clocks drift apart cannot make
 * a live worker look dead, or a dead one alive. A script is as available as BullMQ itself
 * (which runs on Lua scripts), unlike CLIENT LIST, which hosted Redis services often refuse.
 */
/**
 * KEYS[1]: the workers set; ARGV[1]: the worker's id; ARGV[2]: how long a beat counts (see
 * `lapseMs`). Scores the worker with Redis's time now. The set lives that long past the last
 * beat of any worker: every member is stale by then, so a deployment whose workers all died
 * leaves no key.
 */
const BEAT = `${REDIS_NOW}
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return now`;

/**
 * KEYS[1]: the workers set; ARGV[1]: how long a beat counts. Drops the workers silent for
 * longer (killed ones never remove themselves) and counts the rest.
 */
const COUNT = `${REDIS_NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('(%d', now - tonumber(ARGV[1])))
return redis.call('ZCARD', KEYS[1])`;

/**
 * Keeps a worker in the backend's set of live workers (a sorted set scored by its last beat,
 * on Redis's clock) every third of the stall interval (a beat counts two stall intervals,
 * `lapseMs`: a worker whose event loop lags, busy with a flood of tasks, still counts), from now until the returned stop,
 * which removes it at once: a launcher then knows a closed worker is gone without waiting
 * for its beat to age. This, not BullMQ's `getWorkersCount` (CLIENT LIST, still in BullMQ
 * 6, which hosted Redis services often refuse), is how a launcher learns that no worker will
 * ever take a waiting job.
 *
 * @internal
 */
export function keepPresent(parts: BackendParts, workerId: string): () => Promise<void> {
  const { redis, keys, stallMs } = parts;
  // A failed beat is retried at the next one; six in a row missed lets the worker lapse.
  const beat = (): void => void redis.eval(BEAT, 1, keys.workers, workerId, String(lapseMs(stallMs))).catch(() => undefined);
  beat();
  const timer = setInterval(beat, Math.max(10, Math.floor(stallMs / 3)));
  timer.unref(); // the worker's own connections keep its process alive, not its beat
  return async () => {
    clearInterval(timer);
    await redis.zrem(keys.workers, workerId).catch(() => undefined); // Redis gone: the beat ages out
  };
}

/**
 * How many workers beat within the last two stall intervals (`lapseMs`; pruning the others from the set).
 *
 * @internal
 */
export async function liveWorkers(parts: BackendParts): Promise<number> {
  return Number(await parts.redis.eval(COUNT, 1, parts.keys.workers, String(lapseMs(parts.stallMs))));
}
