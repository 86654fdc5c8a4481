/**
 * A conversation's note of its background results dropped unread by the bound (written by
 * the put's script, waiting-result-put.ts), in Redis: subtracted once shown, given back when
 * the prompt that showed it could not be saved, and read as stored.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { NAMED_DROPS, type DroppedResults } from '../delegation/undelivered-results.js';
import type { RedisKeys } from './redis-keys.js';
import { storedObject } from './stored-object.js';
import { READ_NOTE, RESULT_TTL_MS, type ResultMessage } from './waiting-results-store.js';

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
