import type { Redis } from 'ioredis';
import type { OwnedTask } from './known-tasks.js';
import type { RedisKeys } from './redis-keys.js';
import { RefusedRecords } from './refused-records.js';
import { readTaskRecord } from './task-record.js';

/**
 * Reads every task record Redis holds (a scan, 500 keys a step) and gives each good one to
 * `put`. One that is not what an engine writes (`readTaskRecord`), or names another task
 * than its key does, is passed over and left in Redis, all of them said in one warning
 * (`RefusedRecords`) once the scan is done.
 *
 * @internal
 */
export async function loadTaskRecords(redis: Redis, keys: RedisKeys, put: (task: OwnedTask) => void): Promise<void> {
  const refused = new RefusedRecords('task records in Redis', 'loaded');
  const prefix = keys.task('');
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keys.task('*'), 'COUNT', 500);
    cursor = next;
    const values = found.length ? await redis.mget(...found) : [];
    values.forEach((text, i) => {
      const key = found[i]!;
      if (text === null) return; // expired since the scan, or not a string (no record of ours)
      const read = readTaskRecord(text);
      if ('problem' in read) return refused.add(key, read.problem);
      // A record under another task's key would stand in for that task (its end, its cancel).
      if (read.info.taskId !== key.slice(prefix.length)) return refused.add(key, `it names task ${JSON.stringify(read.info.taskId.slice(0, 80))}, not the task of its key`);
      put(read);
    });
  } while (cursor !== '0');
  refused.report();
}
