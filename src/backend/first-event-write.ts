import type { SequencedEvent } from '../runs/run-types.js';
import type { BackendParts } from './backend-parts.js';
import { logEntryFields } from './log-entry.js';

/**
 * KEYS[1]: the log; KEYS[2], if given: its task's list of logs. ARGV[1]: the log's deadline
 * from now (`maxLiveMs`); ARGV[2]: the list's (`taskLogsMs`, unused without KEYS[2]); then the
 * entry's fields (`logEntryFields`). Adds the entry, and sets the deadline, as
 * `RedisEventLog.append` does for a first event, only while the log is not ended (its last
 * entry is not an end); returns 1 (written), 0 (ended: nothing written, its retention left
 * alone) or 2 (no log: nothing written, no launcher opened it, e.g. a job queued by hand). One
 * script, so a launcher's `endIfUnstarted` cannot land between the look and the write: either
 * this write comes first (the launcher then leaves the log to the worker), or the end does and
 * nothing is written after it. The deadline is set again here, not left to the launcher's
 * `open`: a job may wait in the queue for hours, and the open's deadline would end the log
 * (Redis expiring it) in the middle of the run. So is the list's, which the open set too:
 * expired while the log lives, a delete of the conversation would miss the log. The list is
 * kept as long as its newest log can live: its deadline is only ever pushed back.
 */
const APPEND_IF_OPEN = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return 2 end
if last[1][2][1] == 'end' then return 0 end
redis.call('XADD', KEYS[1], '*', unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if KEYS[2] then
  local left = redis.call('PTTL', KEYS[2])
  if left >= 0 and left < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
end
return 1`;

/**
 * Writes a job's first event to its log unless the log was ended before it,
 * atomically (a Lua script); resolves whether it wrote. What a worker writes first: its
 * launcher, having removed the job from the queue (BullMQ removes an active job whose lock
 * lapsed, its worker alive but late), ends a log that holds nothing but its open marker
 * (`endIfUnstarted`), and a worker that wrote after that end would run a task nobody reads.
 * A worker told false stops the job without writing. A log nobody opened is made, as
 * `RedisEventLog.append` makes it. `task`: the job's task, whose list of logs is kept as long
 * as this log can live now (`retentionMs`: the launching engine's, else this backend's).
 *
 * @internal
 */
export async function appendFirstIfOpen(parts: BackendParts, entry: SequencedEvent, task?: { readonly taskId: string; readonly retentionMs: number | undefined }): Promise<boolean> {
  const { redis, keys, eventLog } = parts;
  const logKeys = task ? [keys.log(entry.runId), keys.taskLogs(task.taskId)] : [keys.log(entry.runId)];
  const listMs = task ? eventLog.taskLogsMs(task.retentionMs) : 0;
  const wrote = Number(await redis.eval(APPEND_IF_OPEN, logKeys.length, ...logKeys, String(eventLog.maxLiveMs), String(listMs), ...logEntryFields(entry)));
  // No log (nobody opened it, so no launcher ends it unstarted): made by the first event, as
  // before, with its deadline.
  if (wrote === 2) await eventLog.append(entry);
  return wrote !== 0;
}
