/**
 * The put of a finished background result in Redis, and the one bound on waiting results it
 * applies, dropping the oldest beyond it (waiting-results-store.ts writes that bound).
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { DEFAULT_TASK_TRACKER_LIMITS } from '../delegation/task-tracker-limits.js';
import { NAMED_DROPS, resultKey } from '../delegation/undelivered-results.js';
import { shownKey } from './bad-data-warning.js';
import { redisFailure, scriptRefusal } from './redis-connection.js';
import { REDIS_NOW } from './redis-clock.js';
import type { RedisKeys } from './redis-keys.js';
import { RECORD_GONE } from './results-gone.js';
import { READ_NOTE, RESULT_TTL_MS, waitingKeys, type ResultMessage } from './waiting-results-store.js';

// Adds (or replaces) a result, then drops the oldest waiting ones, all conversations
// together, while more than the bound wait (in count or in text; the newest always stays):
// each dropped one leaves its conversation's hash, is counted in its note and announced.
// The put is announced before the drops, so every mirror applies them in Redis's order.
// The bound is the one an engine wrote (KEYS[6]), else the defaults given (ARGV[5], ARGV[6]):
// a worker's put follows the engines' configured limits without knowing them.
// A result given back (ARGV[13] is '1': taken for a prompt that could not be saved) goes
// where it stood before its take (ARGV[15], the score the take answered), so the bound drops it
// no sooner than had it stayed; its place unknown (''), in front, as the oldest. Any other
// put of a result taken or dropped (KEYS[8], the conversation's gone results, names it) is a
// late one (a worker and its launching engine both put a result) and is refused. A drop is
// recorded there too (ARGV[14]: the prefix of those keys; `recordGone` bounds each).
// A hash of waiting results of another type is refused (a `scriptRefusal`, in its own words,
// the key as `shownKey` shows it: ARGV[16]), not reported as a failure of Redis.

// A member is `<session>\n<task>\n<run start>`; a session id may have line breaks, a task id
// and a start none, so it splits at its last two.
const PUT = `${REDIS_NOW}${READ_NOTE}${RECORD_GONE}
local order, sizes, chars = KEYS[1], KEYS[2], KEYS[3]
-- The task of a deleted conversation (see RedisKeys.deletedTask): its result is no news to anyone.
if redis.call('EXISTS', KEYS[7]) == 1 then return end
-- ZSCORE answers a string for a member, false for none, an error (a table) for a key of another type.
if ARGV[13] == '1' then redis.pcall('ZREM', KEYS[8], ARGV[2])
elseif type(redis.pcall('ZSCORE', KEYS[8], ARGV[2])) == 'string' then return end
-- Refused before its first write (a failing script keeps what it wrote before).
local found = redis.call('TYPE', KEYS[5]).ok
if found ~= 'hash' and found ~= 'none' then ${scriptRefusal("ARGV[16] .. ' is a ' .. found .. ', not a hash of waiting results'")} end
local maxCount, maxChars = tonumber(ARGV[5]), tonumber(ARGV[6])
local bound = redis.call('GET', KEYS[6])
if bound then
  local ok, set = pcall(cjson.decode, bound)
  if ok and type(set) == 'table' then
    if type(set.results) == 'number' and set.results >= 1 then maxCount = set.results end
    if type(set.chars) == 'number' and set.chars >= 0 then maxChars = set.chars end
  end
end
local before = redis.call('HGET', sizes, ARGV[1])
if before then
  redis.call('DECRBY', chars, before)
else
  local score
  local place = tonumber(ARGV[15])
  if ARGV[13] == '1' and place and place == place then -- a number, not NaN
    score = ARGV[15]
  elseif ARGV[13] == '1' then
    local first = redis.call('ZRANGE', order, 0, 0, 'WITHSCORES')
    score = (tonumber(first[2]) or 0) - 1
  else
    score = redis.call('INCR', KEYS[4])
  end
  redis.call('ZADD', order, score, ARGV[1])
end
redis.call('HSET', sizes, ARGV[1], ARGV[4])
local total = redis.call('INCRBY', chars, ARGV[4])
redis.call('HSET', KEYS[5], ARGV[2], ARGV[3])
for _, key in ipairs({ KEYS[5], order, sizes, chars, KEYS[4], KEYS[6] }) do redis.call('PEXPIRE', key, ARGV[7]) end
redis.call('PUBLISH', ARGV[8], ARGV[9])
local count = redis.call('ZCARD', order)
while count > 1 and (count > maxCount or total > maxChars) do
  local oldest = redis.call('ZRANGE', order, 0, 0)[1]
  redis.call('ZREM', order, oldest)
  total = redis.call('DECRBY', chars, tonumber(redis.call('HGET', sizes, oldest) or '0'))
  redis.call('HDEL', sizes, oldest)
  count = count - 1
  local cut = oldest:match('^.*()\\n')
  local cut2 = cut and oldest:sub(1, cut - 1):match('^.*()\\n')
  -- not a member of this form (written by an older version): only its accounting goes
  local session, task, key = '', '', ''
  if cut2 then session, task, key = oldest:sub(1, cut2 - 1), oldest:sub(cut2 + 1, cut - 1), oldest:sub(cut2 + 1) end
  -- pcall: another conversation's hash of another type drops nothing there, and fails nothing here
  if cut2 and redis.pcall('HDEL', ARGV[10] .. session, key) == 1 then
    recordGone(ARGV[14] .. session, now, tonumber(ARGV[7]), { key })
    local noteKey = ARGV[11] .. session
    local note = readNote(noteKey)
    note.count = note.count + 1
    if #note.taskIds < tonumber(ARGV[12]) then note.taskIds[#note.taskIds + 1] = task end
    redis.call('SET', noteKey, cjson.encode(note), 'PX', ARGV[7])
    redis.call('PUBLISH', ARGV[8], cjson.encode({ op = 'dropped', sessionId = session, taskId = task, key = key }))
  end
end`;

/**
 * Puts a finished background result where every engine finds it, within the one bound on
 * waiting results (the `undeliveredResults` and `undeliveredChars` of the engines'
 * `taskTrackerLimits`, see `writeWaitingBound`; the defaults before any engine wrote
 * one): the oldest waiting ones beyond it are dropped in the same script, and their
 * conversations' notes say so. Redis holds the bound, so every engine agrees on what was
 * dropped. What a worker does with a background task's result, and an engine with its own.
 * Put twice (by a worker and by the engine that launched the task), a result is one: it is
 * named by its task and run start. `back`: a result taken for a prompt that could not be
 * saved, given back; every mirror forgets it was taken. It goes back to `place`, where it
 * stood in the bound's order (what its take answered), else in front (the oldest).
 *
 * @internal
 */
export async function putWaitingResult(redis: Redis, keys: RedisKeys, info: TaskInfo, back = false, place?: string): Promise<void> {
  const message: ResultMessage = back ? { op: 'put', info, back } : { op: 'put', info };
  const size = info.description.length + (info.result?.length ?? 0);
  const key = resultKey(info);
  const { undeliveredResults, undeliveredChars } = DEFAULT_TASK_TRACKER_LIMITS;
  const args = [member(info.sessionId, key), key, JSON.stringify(info), size, undeliveredResults, undeliveredChars, RESULT_TTL_MS];
  const channel = [keys.resultsChannel, JSON.stringify(message), keys.results(''), keys.droppedResults(''), NAMED_DROPS, back ? '1' : '0', keys.resultsGone(''), place ?? '', shownKey(keys.results(info.sessionId))];
  const resultKeys = [keys.results(info.sessionId), keys.waitingBound, keys.deletedTask(info.taskId), keys.resultsGone(info.sessionId)];
  try {
    await redis.eval(PUT, 8, ...waitingKeys(keys), ...resultKeys, ...args, ...channel);
  } catch (e) {
    throw redisFailure('putting a background result', e);
  }
}

// A result key (`<task>\n<run start>`) has one line break; a session id may have more.
function member(sessionId: string, key: string): string {
  return `${sessionId}\n${key}`;
}
