import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { DEFAULT_TASK_TRACKER_LIMITS, type TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import { NAMED_DROPS, resultKey, type DroppedResults } from '../delegation/undelivered-results.js';
import { REDIS_NOW } from './redis-clock.js';
import type { RedisKeys } from './redis-keys.js';
import { RECORD_GONE } from './results-gone.js';
import { storedObject } from './stored-object.js';

/** How long a background result (and a note of dropped ones) waits in Redis for its conversation's next prompt. */
export const RESULT_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * What travels on the results channel: a result put, one dropped by the bound, results
 * taken by a prompt, a note of dropped ones shown. `origin` names the mirror that sent it.
 * A result is named by its `resultKey` (task and run start): each run of a resumed task
 * has its own.
 *
 * @internal
 */
export type ResultMessage =
  | { readonly op: 'put'; readonly info: TaskInfo; readonly back?: boolean }
  | { readonly op: 'dropped'; readonly sessionId: string; readonly taskId: string; readonly key: string }
  | { readonly op: 'taken'; readonly sessionId: string; readonly keys: readonly string[]; readonly origin?: string }
  | { readonly op: 'noted'; readonly sessionId: string; readonly count: number; readonly taskIds: readonly string[]; readonly origin: string }
  | { readonly op: 'renoted'; readonly sessionId: string; readonly count: number; readonly taskIds: readonly string[]; readonly origin: string };

// A conversation's note of dropped results (its `dropped` key), decoded; none is a fresh
// note (count 0). One that is not what these scripts write (not JSON, another shape, a key
// of another type) is taken as none, and overwritten by the next write of the note, rather
// than failing the script: a Redis script that fails keeps the writes it made before, and a
// result taken but never announced as taken is delivered again by another instance.
const READ_NOTE = `
local function readNote(key)
  local stored = redis.pcall('GET', key)
  if type(stored) == 'string' then
    local ok, note = pcall(cjson.decode, stored)
    if ok and type(note) == 'table' and type(note.count) == 'number' and type(note.taskIds) == 'table' then return note end
  end
  return { count = 0, taskIds = {} }
end`;

// Adds (or replaces) a result, then drops the oldest waiting ones, all conversations
// together, while more than the bound wait (in count or in text; the newest always stays):
// each dropped one leaves its conversation's hash, is counted in its note and announced.
// The put is announced before the drops, so every mirror applies them in Redis's order.
// The bound is the one an engine wrote (KEYS[6]), else the defaults given (ARGV[5], ARGV[6]):
// a worker's put follows the engines' configured limits without knowing them.
// A result given back (ARGV[13] is '1': taken for a prompt that could not be saved) goes in
// front, as the oldest, so the bound drops it first, as an engine's own list does; any other
// put of a result taken or dropped (KEYS[8], the conversation's gone results, names it) is a
// late one (a worker and its launching engine both put a result) and is refused. A drop is
// recorded there too (ARGV[14]: the prefix of those keys; `recordGone` bounds each).

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
if found ~= 'hash' and found ~= 'none' then return redis.error_reply(KEYS[5] .. ' is a ' .. found .. ', not a hash of waiting results') end
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
  if ARGV[13] == '1' then
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

// Removes delivered results (ARGV[5..]: their keys) from the bound's accounting, and their
// tasks from the note a drop racing the delivery may have named them in; records them taken
// (KEYS[6], each kept ARGV[4] ms: `recordGone`), which is what tells every mirror the take was real.
const TAKE = `${REDIS_NOW}${READ_NOTE}${RECORD_GONE}
local note = readNote(KEYS[5])
local gone = {}
for i = 5, #ARGV do
  local member = ARGV[3] .. '\\n' .. ARGV[i]
  redis.call('HDEL', KEYS[4], ARGV[i])
  gone[#gone + 1] = ARGV[i]
  if redis.call('ZREM', KEYS[1], member) == 1 then
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
redis.call('PUBLISH', ARGV[1], ARGV[2])`;

// Subtracts a note that was shown (drops announced meanwhile stay for the next prompt).
const NOTED = `${READ_NOTE}
local note, shown, kept = readNote(KEYS[1]), {}, {}
for i = 4, #ARGV do shown[ARGV[i]] = true end
for _, id in ipairs(note.taskIds) do if not shown[id] then kept[#kept + 1] = id end end
note.count = note.count - tonumber(ARGV[3])
note.taskIds = kept
if note.count <= 0 then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], cjson.encode(note), 'KEEPTTL') end
redis.call('PUBLISH', ARGV[1], ARGV[2])`;

// Adds a note that was taken for a prompt that could not be saved back to the conversation's
// note (its named tasks first, as the oldest), kept as long as a result.
const RENOTED = `${READ_NOTE}
local note = readNote(KEYS[1])
local ids = {}
for i = 6, #ARGV do if #ids < tonumber(ARGV[4]) then ids[#ids + 1] = ARGV[i] end end
for _, id in ipairs(note.taskIds) do if #ids < tonumber(ARGV[4]) then ids[#ids + 1] = id end end
note.count = note.count + tonumber(ARGV[3])
note.taskIds = ids
redis.call('SET', KEYS[1], cjson.encode(note), 'PX', ARGV[5])
redis.call('PUBLISH', ARGV[1], ARGV[2])`;

/**
 * Puts a finished background result where every engine finds it, within the one bound on
 * waiting results (the `undeliveredResults` and `undeliveredChars` of the engines'
 * `taskTrackerLimits`, see {@link writeWaitingBound}; the defaults before any engine wrote
 * one): the oldest waiting ones beyond it are dropped in the same script, and their
 * conversations' notes say so. Redis holds the bound, so every engine agrees on what was
 * dropped. What a worker does with a background task's result, and an engine with its own.
 * Put twice (by a worker and by the engine that launched the task), a result is one: it is
 * named by its task and run start. `back`: a result taken for a prompt that could not be
 * saved, given back in front (the oldest); every mirror forgets it was taken.
 *
 * @internal
 */
export async function putWaitingResult(redis: Redis, keys: RedisKeys, info: TaskInfo, back = false): Promise<void> {
  const message: ResultMessage = back ? { op: 'put', info, back } : { op: 'put', info };
  const size = info.description.length + (info.result?.length ?? 0);
  const key = resultKey(info);
  const { undeliveredResults, undeliveredChars } = DEFAULT_TASK_TRACKER_LIMITS;
  const args = [member(info.sessionId, key), key, JSON.stringify(info), size, undeliveredResults, undeliveredChars, RESULT_TTL_MS];
  const channel = [keys.resultsChannel, JSON.stringify(message), keys.results(''), keys.droppedResults(''), NAMED_DROPS, back ? '1' : '0', keys.resultsGone('')];
  const resultKeys = [keys.results(info.sessionId), keys.waitingBound, keys.deletedTask(info.taskId), keys.resultsGone(info.sessionId)];
  await redis.eval(PUT, 8, ...waitingKeys(keys), ...resultKeys, ...args, ...channel);
}

/**
 * Writes the bound on waiting results every put applies from now on, from an engine's
 * `taskTrackerLimits` (unset ones: the defaults). One bound for all the results on a Redis
 * prefix: the engine whose tracker was made last sets it, so give every engine of a
 * deployment the same limits. It expires with the results it bounds (each put renews both).
 *
 * @internal
 */
export async function writeWaitingBound(redis: Redis, keys: RedisKeys, limits: TaskTrackerLimits): Promise<void> {
  const { undeliveredResults: results, undeliveredChars: chars } = { ...DEFAULT_TASK_TRACKER_LIMITS, ...limits };
  await redis.set(keys.waitingBound, JSON.stringify({ results, chars }), 'PX', RESULT_TTL_MS);
}

/** Takes delivered results (by their `resultKey`) out of Redis and tells every engine. @internal */
export async function takeWaitingResults(redis: Redis, keys: RedisKeys, sessionId: string, resultKeys: readonly string[], origin: string): Promise<void> {
  const message: ResultMessage = { op: 'taken', sessionId, keys: resultKeys, origin };
  const [order, sizes, chars] = waitingKeys(keys);
  const taking = [keys.results(sessionId), keys.droppedResults(sessionId), keys.resultsGone(sessionId)];
  await redis.eval(TAKE, 6, order, sizes, chars, ...taking, keys.resultsChannel, JSON.stringify(message), sessionId, RESULT_TTL_MS, ...resultKeys);
}

/** Subtracts a shown note of dropped results in Redis and tells every engine. @internal */
export async function takeDroppedNote(redis: Redis, keys: RedisKeys, sessionId: string, note: DroppedResults, origin: string): Promise<void> {
  const message: ResultMessage = { op: 'noted', sessionId, count: note.count, taskIds: note.taskIds, origin };
  await redis.eval(NOTED, 1, keys.droppedResults(sessionId), keys.resultsChannel, JSON.stringify(message), note.count, ...note.taskIds);
}

/** Gives back a note of dropped results taken for a prompt that could not be saved, and tells every engine. @internal */
export async function putBackDroppedNote(redis: Redis, keys: RedisKeys, sessionId: string, note: DroppedResults, origin: string): Promise<void> {
  const message: ResultMessage = { op: 'renoted', sessionId, count: note.count, taskIds: note.taskIds, origin };
  await redis.eval(RENOTED, 1, keys.droppedResults(sessionId), keys.resultsChannel, JSON.stringify(message), note.count, NAMED_DROPS, RESULT_TTL_MS, ...note.taskIds);
}

/** A stored note of dropped results, or undefined when it is not one. @internal */
export function parseDroppedNote(stored: unknown): { count: number; taskIds: string[] } | undefined {
  const v = storedObject(stored);
  const count = v?.['count'];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return undefined;
  // Lua's cjson writes an empty list as `{}`.
  const ids = Array.isArray(v!['taskIds']) ? (v!['taskIds'] as unknown[]) : [];
  return { count, taskIds: ids.filter((id): id is string => typeof id === 'string').slice(0, NAMED_DROPS) };
}

function waitingKeys(keys: RedisKeys): [string, string, string, string] {
  return [keys.waitingOrder, keys.waitingSizes, keys.waitingChars, keys.waitingSeq];
}

// A result key (`<task>\n<run start>`) has one line break; a session id may have more.
function member(sessionId: string, key: string): string {
  return `${sessionId}\n${key}`;
}
