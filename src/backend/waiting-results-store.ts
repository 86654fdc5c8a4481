/**
 * What the scripts that keep background results waiting in Redis share: how long they wait,
 * what the results channel carries, how a note of dropped ones is read, the keys of the one
 * bound, and the writing of that bound. The put (which applies the bound) is
 * waiting-result-put.ts, the take of delivered ones waiting-result-take.ts, the notes of
 * dropped ones dropped-note-store.ts.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { DEFAULT_TASK_TRACKER_LIMITS, type TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import type { RedisKeys } from './redis-keys.js';

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

/**
 * A Lua function for the scripts (`readNote(key)`): a conversation's note of dropped results
 * (its `dropped` key), decoded; none is a fresh note (count 0). One that is not what these
 * scripts write (not JSON, another shape, a key of another type) is taken as none, and
 * overwritten by the next write of the note, rather than failing the script: a Redis script
 * that fails keeps the writes it made before, and a result taken but never announced as
 * taken is delivered again by another instance.
 *
 * @internal
 */
export const READ_NOTE = `
local function readNote(key)
  local stored = redis.pcall('GET', key)
  if type(stored) == 'string' then
    local ok, note = pcall(cjson.decode, stored)
    if ok and type(note) == 'table' and type(note.count) == 'number' and type(note.taskIds) == 'table' then return note end
  end
  return { count = 0, taskIds = {} }
end`;

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

/** The keys of the one bound on waiting results, for the put and take scripts. @internal */
export function waitingKeys(keys: RedisKeys): [string, string, string, string] {
  return [keys.waitingOrder, keys.waitingSizes, keys.waitingChars, keys.waitingSeq];
}
