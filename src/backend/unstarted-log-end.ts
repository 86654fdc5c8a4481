import type { LogEnding } from '../runs/run-types.js';
import type { BackendParts } from './backend-parts.js';

/**
 * KEYS[1]: the log; ARGV[1]: the ending's JSON; ARGV[2]: the retention. Ends the log (as
 * `RedisEventLog.end` does) only while it holds nothing but its open marker. One script, so
 * no worker's first event can land between the look and the end: either it came first (no
 * end here), or the worker finds this end as it writes its first event and stops without
 * writing (`appendFirstIfOpen`, a script too). A log gone (expired, deleted) is not made again.
 */
const END_IF_UNSTARTED = `
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 2)
if #first ~= 1 or first[1][2][1] ~= 'open' then return 0 end
redis.call('XADD', KEYS[1], '*', 'end', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Ends a child's log with `ending` if no worker wrote to it yet (only its open marker is
 * there), atomically (a Lua script); resolves whether it did. What a launcher that removed
 * the child's job from the queue writes: a successful remove does not prove that no worker
 * took the job (BullMQ removes an active job whose lock lapsed, its worker alive but slow),
 * and a worker that started it ends the log itself, as it obeys the cancel; one that starts it
 * after this end writes nothing.
 *
 * @internal
 */
export async function endIfUnstarted(parts: BackendParts, logId: string, ending: LogEnding): Promise<boolean> {
  const { redis, keys, eventLog } = parts;
  return Number(await redis.eval(END_IF_UNSTARTED, 1, keys.log(logId), JSON.stringify(ending), String(eventLog.retentionMs))) === 1;
}
