import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { MAX_UNDELIVERED_CHARS, MAX_UNDELIVERED_RESULTS, type DroppedResults } from '../delegation/undelivered-results.js';
import type { RedisKeys } from './redis-keys.js';
import { storedObject } from './stored-object.js';

/** How long a background result (and a note of dropped ones) waits in Redis for its conversation's next prompt. */
export const RESULT_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * What travels on the results channel: a result put, one dropped by the bound, results
 * taken by a prompt, a note of dropped ones shown. `origin` names the mirror that sent it.
 *
 * @internal
 */
export type ResultMessage =
  | { readonly op: 'put'; readonly info: TaskInfo }
  | { readonly op: 'dropped'; readonly sessionId: string; readonly taskId: string }
  | { readonly op: 'taken'; readonly sessionId: string; readonly taskIds: readonly string[]; readonly origin?: string }
  | { readonly op: 'noted'; readonly sessionId: string; readonly count: number; readonly taskIds: readonly string[]; readonly origin: string };

// Adds (or replaces) a result, then drops the oldest waiting ones, all conversations
// together, while more than the bound wait (in count or in text; the newest always stays):
// each dropped one leaves its conversation's hash, is counted in its note and announced.
// The put is announced before the drops, so every mirror applies them in Redis's order.
const PUT = `
local order, sizes, chars = KEYS[1], KEYS[2], KEYS[3]
local before = redis.call('HGET', sizes, ARGV[1])
if before then redis.call('DECRBY', chars, before) else redis.call('ZADD', order, redis.call('INCR', KEYS[4]), ARGV[1]) end
redis.call('HSET', sizes, ARGV[1], ARGV[4])
local total = redis.call('INCRBY', chars, ARGV[4])
redis.call('HSET', KEYS[5], ARGV[2], ARGV[3])
for _, key in ipairs({ KEYS[5], order, sizes, chars, KEYS[4] }) do redis.call('PEXPIRE', key, ARGV[7]) end
redis.call('PUBLISH', ARGV[8], ARGV[9])
local count = redis.call('ZCARD', order)
while count > 1 and (count > tonumber(ARGV[5]) or total > tonumber(ARGV[6])) do
  local oldest = redis.call('ZRANGE', order, 0, 0)[1]
  redis.call('ZREM', order, oldest)
  total = redis.call('DECRBY', chars, tonumber(redis.call('HGET', sizes, oldest) or '0'))
  redis.call('HDEL', sizes, oldest)
  count = count - 1
  local cut = oldest:match('^.*()\\n')
  local session, task = oldest:sub(1, cut - 1), oldest:sub(cut + 1)
  if redis.call('HDEL', ARGV[10] .. session, task) == 1 then
    local noteKey = ARGV[11] .. session
    local stored = redis.call('GET', noteKey)
    local note = stored and cjson.decode(stored) or { count = 0, taskIds = {} }
    note.count = note.count + 1
    if #note.taskIds < 10 then note.taskIds[#note.taskIds + 1] = task end
    redis.call('SET', noteKey, cjson.encode(note), 'PX', ARGV[7])
    redis.call('PUBLISH', ARGV[8], cjson.encode({ op = 'dropped', sessionId = session, taskId = task }))
  end
end`;

// Removes delivered results from the bound's accounting, and from the note a drop racing the
// delivery may have named them in.
const TAKE = `
for i = 4, #ARGV do
  local member = ARGV[3] .. '\\n' .. ARGV[i]
  redis.call('HDEL', KEYS[4], ARGV[i])
  if redis.call('ZREM', KEYS[1], member) == 1 then
    redis.call('DECRBY', KEYS[3], tonumber(redis.call('HGET', KEYS[2], member) or '0'))
    redis.call('HDEL', KEYS[2], member)
  end
end
local stored = redis.call('GET', KEYS[5])
if stored then
  local note, taken, kept = cjson.decode(stored), {}, {}
  for i = 4, #ARGV do taken[ARGV[i]] = true end
  for _, id in ipairs(note.taskIds) do if taken[id] then note.count = note.count - 1 else kept[#kept + 1] = id end end
  note.taskIds = kept
  if note.count <= 0 then redis.call('DEL', KEYS[5]) else redis.call('SET', KEYS[5], cjson.encode(note), 'KEEPTTL') end
end
redis.call('PUBLISH', ARGV[1], ARGV[2])`;

// Subtracts a note that was shown (drops announced meanwhile stay for the next prompt).
const NOTED = `
local stored = redis.call('GET', KEYS[1])
if stored then
  local note, shown, kept = cjson.decode(stored), {}, {}
  for i = 4, #ARGV do shown[ARGV[i]] = true end
  for _, id in ipairs(note.taskIds) do if not shown[id] then kept[#kept + 1] = id end end
  note.count = note.count - tonumber(ARGV[3])
  note.taskIds = kept
  if note.count <= 0 then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], cjson.encode(note), 'KEEPTTL') end
end
redis.call('PUBLISH', ARGV[1], ARGV[2])`;

/**
 * Puts a finished background result where every engine finds it, within the one bound on
 * waiting results (`MAX_UNDELIVERED_RESULTS` and `MAX_UNDELIVERED_CHARS`, as an engine's own
 * tracker): the oldest waiting ones beyond it are dropped in the same script, and their
 * conversations' notes say so. Redis holds the bound, so every engine agrees on what was
 * dropped. What a worker does with a background task's result, and an engine with its own.
 *
 * @internal
 */
export async function putWaitingResult(redis: Redis, keys: RedisKeys, info: TaskInfo): Promise<void> {
  const message: ResultMessage = { op: 'put', info };
  const size = info.description.length + (info.result?.length ?? 0);
  const args = [member(info.sessionId, info.taskId), info.taskId, JSON.stringify(info), size, MAX_UNDELIVERED_RESULTS, MAX_UNDELIVERED_CHARS, RESULT_TTL_MS];
  await redis.eval(PUT, 5, ...waitingKeys(keys), keys.results(info.sessionId), ...args, keys.resultsChannel, JSON.stringify(message), keys.results(''), keys.droppedResults(''));
}

/** Takes delivered results out of Redis and tells every engine. @internal */
export async function takeWaitingResults(redis: Redis, keys: RedisKeys, sessionId: string, taskIds: readonly string[], origin: string): Promise<void> {
  const message: ResultMessage = { op: 'taken', sessionId, taskIds, origin };
  const [order, sizes, chars] = waitingKeys(keys);
  await redis.eval(TAKE, 5, order, sizes, chars, keys.results(sessionId), keys.droppedResults(sessionId), keys.resultsChannel, JSON.stringify(message), sessionId, ...taskIds);
}

/** Subtracts a shown note of dropped results in Redis and tells every engine. @internal */
export async function takeDroppedNote(redis: Redis, keys: RedisKeys, sessionId: string, note: DroppedResults, origin: string): Promise<void> {
  const message: ResultMessage = { op: 'noted', sessionId, count: note.count, taskIds: note.taskIds, origin };
  await redis.eval(NOTED, 1, keys.droppedResults(sessionId), keys.resultsChannel, JSON.stringify(message), note.count, ...note.taskIds);
}

/** A stored note of dropped results, or undefined when it is not one. @internal */
export function parseDroppedNote(stored: unknown): { count: number; taskIds: string[] } | undefined {
  const v = storedObject(stored);
  const count = v?.['count'];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return undefined;
  // Lua's cjson writes an empty list as `{}`.
  const ids = Array.isArray(v!['taskIds']) ? (v!['taskIds'] as unknown[]) : [];
  return { count, taskIds: ids.filter((id): id is string => typeof id === 'string').slice(0, 10) };
}

function waitingKeys(keys: RedisKeys): [string, string, string, string] {
  return [keys.waitingOrder, keys.waitingSizes, keys.waitingChars, keys.waitingSeq];
}

// A task id has no line break; a session id may, so the task is what follows the last one.
function member(sessionId: string, taskId: string): string {
  return `${sessionId}\n${taskId}`;
}
