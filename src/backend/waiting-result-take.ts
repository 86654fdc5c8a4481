/**
 * The take of delivered background results out of Redis (and out of the bound's accounting),
 * which records them taken, so every mirror forgets them and a late put of one is refused.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { REDIS_NOW } from './redis-clock.js';
import type { RedisKeys } from './redis-keys.js';
import { RECORD_GONE } from './results-gone.js';
import { READ_NOTE, RESULT_TTL_MS, waitingKeys, type ResultMessage } from './waiting-results-store.js';

// Removes delivered results (ARGV[5..]: their keys) from the bound's accounting, and their
// tasks from the note a drop racing the delivery may have named them in; records them taken
// (KEYS[6], each kept ARGV[4] ms: `recordGone`), which is what tells every mirror the take was real.
// Answers where each stood in the bound's order (its key, then its score), for a put-back.
const TAKE = `${REDIS_NOW}${READ_NOTE}${RECORD_GONE}
local note = readNote(KEYS[5])
local gone, places = {}, {}
for i = 5, #ARGV do
  local member = ARGV[3] .. '\\n' .. ARGV[i]
  redis.call('HDEL', KEYS[4], ARGV[i])
  gone[#gone + 1] = ARGV[i]
  local place = redis.call('ZSCORE', KEYS[1], member)
  if place then
    redis.call('ZREM', KEYS[1], member)
    places[#places + 1] = ARGV[i]
    places[#places + 1] = place
    redis.call('DECRBY', KEYS[3], tonumber(redis.call('HGET', KEYS[2], member) or '0'))
    redis.call('HDEL', KEYS[2], member)
  end
end
recordGone(KEYS[6], now, tonumber(ARGV[4]), gone)
local taken, kept = {}, {}
for i = 5, #ARGV do taken[ARGV[i]:match('^(.*)\\n')] = true end
for _, id in ipairs(note.taskIds) do if taken[id] then note.count = note.count - 1 else kept[#kept + 1] = id end end
note.taskIds = kept
if note.count <= 0 then redis.call('DEL', KEYS[5]) else redis.call('SET', KEYS[5], cjson.encode(note), 'KEEPTTL') end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return places`;

/**
 * Takes delivered results (by their `resultKey`) out of Redis and tells every engine.
 * Resolves with where each one waiting stood in the bound's order (its score there, by its
 * key): a put-back (`putWaitingResult`) puts it there again, so the bound drops it no sooner
 * than had it never been taken.
 *
 * @internal
 */
export async function takeWaitingResults(redis: Redis, keys: RedisKeys, sessionId: string, resultKeys: readonly string[], origin: string): Promise<Map<string, string>> {
  const message: ResultMessage = { op: 'taken', sessionId, keys: resultKeys, origin };
  const [order, sizes, chars] = waitingKeys(keys);
  const taking = [keys.results(sessionId), keys.droppedResults(sessionId), keys.resultsGone(sessionId)];
  const answer = await redis.eval(TAKE, 6, order, sizes, chars, ...taking, keys.resultsChannel, JSON.stringify(message), sessionId, RESULT_TTL_MS, ...resultKeys);
  const places = new Map<string, string>();
  if (Array.isArray(answer)) for (let i = 0; i + 1 < answer.length; i += 2) places.set(String(answer[i]), String(answer[i + 1]));
  return places;
}
