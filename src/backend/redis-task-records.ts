/**
 * Which task records on Redis `RedisSessionStore` trusts (how its delete reads Redis' answers
 * is in redis-delete-answers.ts): a record under the prefix may have been planted or left by something else, so
 * neither a delete, a listing nor a resume acts on one that is not what `saveTaskInfo` writes for a
 * task session. One rule for all of them (`taskRecordFor`), so they cannot drift apart.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { TaskSessionInfo } from '../session/session-store.js';
import { taskSessionInfoOf } from '../session/task-session-info.js';
import { shownKey, warnBadData } from './bad-data-warning.js';
import { isWrongType } from './load-hash.js';
import { redisFailure } from './redis-connection.js';
import { failDeleting } from './redis-delete-answers.js';
import type { RedisKeys } from './redis-keys.js';
import { storedObject } from './stored-object.js';

/** The task info a stored value holds ({@link taskSessionInfoOf}); `undefined` when it is not of the shape `saveTaskInfo` writes. */
export function taskInfoOf(text: unknown): TaskSessionInfo | undefined {
  return taskSessionInfoOf(storedObject(typeof text === 'string' ? text : null));
}

/**
 * The task info stored for session `id` if it can be the record of a task session of that id:
 * of the shape `saveTaskInfo` writes, naming `id` as its task and another session as its
 * owner. Whether the id is a conversation the index lists is for the caller to check (the
 * record alone cannot say: a planted one reads the same).
 */
export function taskRecordFor(text: unknown, id: string): TaskSessionInfo | undefined {
  const info = taskInfoOf(text);
  return info && info.taskId === id && info.ownerSessionId !== id ? info : undefined;
}

/**
 * The ids in the conversation's task set (`listed`) and, of them, the tasks it started
 * (`owned`): those whose record is its task record ({@link taskRecordFor}) naming it as the
 * owner, and which the index does not list as a conversation (a task session never is: its
 * record is saved before its first write). The rest (an id put in the set by hand, a record
 * naming another owner or of another type, a record naming it as the owner of a conversation)
 * is no task of it: left as it is, with a warning. One round trip for all the records.
 */
export async function ownedTasks(redis: Redis, k: RedisKeys, sessionId: string): Promise<{ listed: string[]; owned: string[] }> {
  const listed = await redis.smembers(k.sessionTasks(sessionId)).catch(noSet);
  if (listed.length === 0) return { listed, owned: [] };
  const reads = redis.multi();
  for (const id of listed) reads.get(k.taskInfo(id)).zscore(k.sessionIndex(), id);
  const answers = (await reads.exec().catch(failDeleting(sessionId))) ?? [];
  const owned = listed.filter((id, i) => {
    const [infoError, text] = answers[2 * i] ?? [new Error('no answer')];
    // An index of another type lists nothing (a write rebuilds it): no id is taken for a conversation by it.
    const [indexError, score] = answers[2 * i + 1] ?? [null, null];
    if (infoError?.message.startsWith('WRONGTYPE')) return notTask(k.taskInfo(id), sessionId, 'is not a string');
    if (infoError) throw redisFailure('deleting a session', infoError);
    if (text === null) return false; // expired, or never saved: nothing of it to delete
    if (taskRecordFor(text, id)?.ownerSessionId !== sessionId) return notTask(k.taskInfo(id), sessionId, 'holds no task info of it (another owner or task, or no task info at all)');
    if (!indexError && score !== null) return notTask(k.taskInfo(id), sessionId, `names it as the owner of "${shownKey(id)}", which the index lists as a conversation`);
    return true;
  });
  return { listed, owned };
}

/**
 * The task infos of the tasks conversation `sessionId` started, as {@link ownedTasks} takes
 * them (its task set's records naming it as their owner, under ids the index does not list as
 * conversations), without its warnings: a record it passes over is left for the delete to
 * warn of. One round trip for all the records, after the set's.
 */
export async function ownedTaskInfos(redis: Redis, k: RedisKeys, sessionId: string): Promise<TaskSessionInfo[]> {
  const listed = await redis.smembers(k.sessionTasks(sessionId)).catch((e: unknown) => (isWrongType(e) ? [] : listFail(e)));
  if (listed.length === 0) return [];
  const reads = redis.multi();
  for (const id of listed) reads.get(k.taskInfo(id)).zscore(k.sessionIndex(), id);
  const answers = (await reads.exec().catch(listFail)) ?? [];
  return listed.flatMap((id, i) => {
    const [infoError, text] = answers[2 * i] ?? [new Error('no answer')];
    const [indexError, score] = answers[2 * i + 1] ?? [null, null];
    const info = infoError ? undefined : taskRecordFor(text, id);
    return info?.ownerSessionId === sessionId && (indexError || score === null) ? [info] : [];
  });
}

/**
 * The task record of `taskId` a resume may trust: {@link taskRecordFor} (its own id, another
 * owner), and an id the index does not list as a conversation (a task session never is). A
 * record under a listed conversation's id was planted (or left by something else): taken for
 * the task, it would let its "owner" resume the conversation and read its transcript. That one
 * is refused (`undefined`, as unknown) with a warning naming the key; a record that is no task
 * record at all (an older or foreign shape, another type) is unknown too, as it always was.
 * One round trip.
 */
export async function loadTaskRecord(redis: Redis, k: RedisKeys, taskId: string): Promise<TaskSessionInfo | undefined> {
  const key = k.taskInfo(taskId);
  const answers = await redis.multi().get(key).zscore(k.sessionIndex(), taskId).exec().catch(loadFail);
  const [[infoError, text], [indexError, score]] = (answers ?? [[null, null], [null, null]]) as [Error | null, unknown][];
  // A record of another type is no task record (as if unknown); any other refusal is a failure.
  if (infoError && !infoError.message.startsWith('WRONGTYPE')) loadFail(infoError);
  const info = infoError ? undefined : taskRecordFor(text, taskId);
  // An index of another type lists nothing (the next write rebuilds it).
  if (!info || indexError || score === null || score === undefined) return info;
  warnBadData(key, `Redis key ${shownKey(key)} names "${shownKey(info.ownerSessionId)}" as the owner of task "${shownKey(taskId)}", but the index lists "${shownKey(taskId)}" as a conversation: not taken for a task (a session store never writes that), so it resumes nothing and nothing of the conversation is read; the record is left as it is.`);
  return undefined;
}

/** Warns that the record at `key`, listed among the tasks of `sessionId`, is none of its tasks (so its delete leaves it); answers `false`. */
function notTask(key: string, sessionId: string, why: string): false {
  warnBadData(key, `Redis key ${shownKey(key)}, listed among the tasks of conversation "${shownKey(sessionId)}", ${why}: not deleted with it (a session store never writes that), left as it is.`);
  return false;
}

/** A set key found of another type (not written by this store) lists no task; any other failure is one. */
function noSet(e: unknown): string[] {
  if (e instanceof Error && e.message.startsWith('WRONGTYPE')) return [];
  throw redisFailure('deleting a session', e);
}

function listFail(e: unknown): never {
  throw redisFailure('listing the tasks of a session', e);
}

function loadFail(e: unknown): never {
  throw redisFailure('loading a task', e);
}
