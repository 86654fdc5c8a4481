/**
 * What `RedisSessionStore.loadTaskInfo` answers: the task record `loadTaskRecord` trusts (the
 * one rule of redis-task-records.ts), `undefined` for a task with no record, and a refusal
 * naming the key and what is wrong for a record that is there but holds no task info. A
 * resume then says what to do, as the file store does for a corrupt task file, rather than
 * calling the task unknown.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { TaskSessionInfo } from '../session/session-store.js';
import { taskSessionInfoOf } from '../session/task-session-info.js';
import { UnsealedSessionError } from '../session/unsealed-session-error.js';
import { shownKey } from './bad-data-warning.js';
import { redisFailure } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import { loadTaskRecord, taskRecordFor } from './redis-task-records.js';
import { isPlainObject } from './stored-object.js';

/** The fields `saveTaskInfo` writes, each a string (`parentSessionId` only when set). */
const FIELDS = ['taskId', 'agentName', 'description', 'ownerSessionId'] as const;

/**
 * The task info stored for `taskId`, `undefined` when none is stored (or the record is one
 * `loadTaskRecord` refuses with a warning: under a listed conversation's id).
 *
 * @throws UnsealedSessionError (`what: 'task'`, `problem` set) for a record that is no task info of `taskId`.
 */
export async function loadTaskInfoOrRefuse(redis: Redis, k: RedisKeys, taskId: string): Promise<TaskSessionInfo | undefined> {
  const info = await loadTaskRecord(redis, k, taskId);
  if (info) return info;
  // Only an unknown task costs this second read: it tells an absent record from a bad one.
  const key = k.taskInfo(taskId);
  const answers = await redis.multi().type(key).get(key).exec().catch(loadFail);
  const [[typeError, type], [, text]] = (answers ?? [[null, 'none'], [null, null]]) as [Error | null, unknown][];
  if (typeError) loadFail(typeError);
  if (type === 'none') return undefined; // absent (or gone since the first read)
  const problem = type === 'string' ? recordProblem(text, taskId) : `is a ${String(type)}, not a string`;
  // No problem: a whole task record, the one under a listed conversation `loadTaskRecord` warned of (or one saved since).
  if (problem === undefined) return undefined;
  throw new UnsealedSessionError(taskId, key, [], 'task', problem);
}

/** What makes `text` no record `saveTaskInfo` wrote for `taskId`, in words that follow the key; `undefined` when it is one. */
function recordProblem(text: unknown, taskId: string): string | undefined {
  if (typeof text !== 'string') return 'is not a string';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  if (!isPlainObject(value)) return `is JSON but not an object (${kindOf(value)})`;
  for (const field of FIELDS) {
    if (!(field in value)) return `has no "${field}"`;
    if (typeof value[field] !== 'string') return `has ${kindOf(value[field])} as its "${field}", not a string`;
  }
  if (value.parentSessionId !== undefined && typeof value.parentSessionId !== 'string') return `has ${kindOf(value.parentSessionId)} as its "parentSessionId", not a string`;
  const info = taskSessionInfoOf(value)!;
  if (info.taskId !== taskId) return `names another task ("${shownKey(info.taskId)}")`;
  if (info.ownerSessionId === taskId) return 'names the task as its own owner';
  // The one rule, should it ever check more than the lines above.
  return taskRecordFor(text, taskId) ? undefined : 'is not of the shape a task record has';
}

/** What a JSON value is, as a message says it ("an array", "a number", "null"). */
function kindOf(value: unknown): string {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return kind === 'null' ? kind : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function loadFail(e: unknown): never {
  throw redisFailure('loading a task', e);
}
