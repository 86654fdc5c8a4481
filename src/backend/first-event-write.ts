import type { SequencedEvent } from '../runs/run-types.js';
import type { BackendParts } from './backend-parts.js';
import { logEntryFields } from './log-entry.js';

/**
 * KEYS[1]: the log; ARGV[1]: the log's deadline from now (`maxLiveMs`), then the entry's
 * fields (`logEntryFields`). Adds the entry, and sets the deadline, as
 * `RedisEventLog.append` does for a first event, only while the log is not ended (its last
 * entry is not an end); returns 1 (written), 0 (ended: nothing written, its retention left
 * alone) or 2 (no log: nothing written, no launcher opened it, e.g. a job queued by hand). One
 * script, so a launcher's `endIfUnstarted` cannot land between the look and the write: either
 * this write comes first (the launcher then leaves the log to the worker), or the end does and
 * nothing is written after it. The deadline is set again here, not left to the launcher's
 * `open`: a job may wait in the queue for hours, and the open's deadline would end the log
 * (Redis expiring it) in the middle of the run.
 */
const APPEND_IF_OPEN = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return 2 end
if last[1][2][1] == 'end' then return 0 end
redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * Writes a job's first event to its log unless the log was ended before it,
 * atomically (a Lua script); resolves whether it wrote. What a worker writes first: its
 * launcher, having removed the job from the queue (BullMQ removes an active job whose lock
 * lapsed, its worker alive but late), ends a log that holds nothing but its open marker
 * (`endIfUnstarted`), and a worker that wrote after that end would run a task nobody reads.
 * A worker told false stops the job without writing. A log nobody opened is made, as
 * `RedisEventLog.append` makes it.
 *
 * @internal
 */
export async function appendFirstIfOpen(parts: BackendParts, entry: SequencedEvent): Promise<boolean> {
  const { redis, keys, eventLog } = parts;
  const wrote = Number(await redis.eval(APPEND_IF_OPEN, 1, keys.log(entry.runId), String(eventLog.maxLiveMs), ...logEntryFields(entry)));
  // No log (nobody opened it, so no launcher ends it unstarted): made by the first event, as
  // before, with its deadline.
  if (wrote === 2) await eventLog.append(entry);
  return wrote !== 0;
}
