import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { RedisKeys } from './redis-keys.js';
import { readStoredTask } from './stored-task.js';
import { putTaskMessage } from './task-messages.js';

/** KEYS[1]: a task's key. Replaces the record only if it is still the text read (ARGV[1]), then announces it. */
const SWAP = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1`;

/**
 * Records a background task's end in its shared record, for when the engine that launched it
 * is gone (what a worker does as it finishes one): the record keeps what that engine wrote
 * (its start, owner) and takes `final`'s state, end, result and metrics, as its tracker
 * would. Only a record still `running`, and not of a later launch than `queuedAt`, is
 * settled, by compare-and-swap: a cancel (or any end) its live engine recorded is never
 * undone, and a live engine's own record, written after, is the one that stays (it agrees,
 * up to `endedAt`). A record that is none an engine writes is left as it is, with a warning
 * (`readStoredTask`). Resolves whether it settled the record.
 *
 * @internal
 */
export async function settleRecord(redis: Redis, keys: RedisKeys, final: TaskInfo, queuedAt: number | undefined, retentionMs: number): Promise<boolean> {
  const key = keys.task(final.taskId);
  // Another write between the read and the swap: read again (it is at most the engine's own end).
  for (let attempt = 0; attempt < 3; attempt++) {
    const stored = await readStoredTask(redis, keys, final.taskId, 'the end the worker that ran the task reached is not recorded there');
    if (!stored || stored.info.state !== 'running' || (queuedAt !== undefined && stored.info.startedAt > queuedAt)) return false;
    const { state, endedAt, result, metrics } = final;
    const info: TaskInfo = { ...stored.info, state, endedAt, result, ...(metrics ? { metrics } : {}) };
    const record = JSON.stringify({ ...info, owner: stored.owner });
    if ((await redis.eval(SWAP, 1, key, stored.text, record, String(retentionMs), keys.tasksChannel, putTaskMessage(info, stored.owner))) === 1) return true;
  }
  return false;
}
