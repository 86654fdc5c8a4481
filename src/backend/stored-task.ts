/**
 * The single reads of what Redis holds about one task, for a decision about it (settle its
 * record, apply a cancel, fail a task whose worker died): anything there that an engine or
 * a worker never writes (another shape, another type of key, another task's record) is
 * read as nothing, with one warning (`warnBadData`, once per key for the life of the
 * process) naming the key, why, and what was not done; the key is left as it is.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { markInvisible } from '../text/visible-text.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { shownKey, warnBadData } from './bad-data-warning.js';
import { isWrongType } from './load-hash.js';
import type { RedisKeys } from './redis-keys.js';
import { storedObject } from './stored-object.js';
import { readTaskRecord } from './task-record.js';

/** A task record as stored: its text (for a compare-and-swap), the task, the instance running it. */
export interface StoredTask {
  readonly text: string;
  readonly info: TaskInfo;
  readonly owner?: string;
}

/** Which job runs a background task's launch, as a worker marks it (`markBackgroundJob`). */
export interface JobMark {
  readonly logId: string;
  readonly queuedAt: number;
}

/**
 * The record of `taskId`, or undefined when there is none or it is not one an engine writes
 * (warned once, with `consequence`: what is not done for want of it).
 *
 * @example
 * ```ts
 * const stored = await readStoredTask(redis, keys, 'task_1', 'the end a worker recorded for it is not written there');
 * ```
 *
 * @internal
 */
export async function readStoredTask(redis: Redis, keys: RedisKeys, taskId: string, consequence: string): Promise<StoredTask | undefined> {
  const key = keys.task(taskId);
  const text = await stringAt(redis, key, 'task record an engine writes', consequence);
  if (text === undefined) return undefined;
  const read = readTaskRecord(text);
  if ('problem' in read) return refuse(key, 'task record an engine writes', read.problem, consequence);
  // Taken as this task's, another task's record would settle or cancel that other task.
  if (read.info.taskId !== taskId) return refuse(key, 'task record an engine writes', `it names task ${JSON.stringify(read.info.taskId.slice(0, 80))}, not the task of its key`, consequence);
  return { text, ...read };
}

/**
 * The mark naming the job that runs `taskId`'s launch, or undefined when there is none or it
 * is not one a worker writes (warned once, with `consequence`).
 *
 * @internal
 */
export async function readJobMark(redis: Redis, keys: RedisKeys, taskId: string, consequence: string): Promise<JobMark | undefined> {
  const key = keys.taskJob(taskId);
  const text = await stringAt(redis, key, 'job mark a worker writes', consequence);
  if (text === undefined) return undefined;
  const mark = storedObject(text);
  const logId = mark?.['logId'];
  const queuedAt = mark?.['queuedAt'];
  if (typeof logId === 'string' && Number.isSafeInteger(queuedAt)) return { logId, queuedAt: queuedAt as number };
  return refuse(key, 'job mark a worker writes', 'it is not a JSON object with a string "logId" and a whole number "queuedAt"', consequence);
}

/**
 * The start of the launch a cancel marker names (`SharedTasks.cancel` writes the task
 * record's `startedAt`), or undefined when there is none or it is not one an engine writes
 * (warned once, with `consequence`). A key of another type used to throw `WRONGTYPE` out of
 * the worker's check, failing the job; read as no marker, the job runs, as it would have
 * without the key: a planted key can cancel no task, and a real cancel always writes a string.
 *
 * @internal
 */
export async function readCancelMark(redis: Redis, keys: RedisKeys, taskId: string, consequence: string): Promise<string | undefined> {
  const key = keys.taskCancelled(taskId);
  const text = await stringAt(redis, key, 'cancel marker an engine writes', consequence);
  if (text === undefined || /^\d{1,16}$/.test(text)) return text;
  return refuse(key, 'cancel marker an engine writes', 'it is not the start of a launch, epoch milliseconds', consequence);
}

/** The string at `key`; undefined when there is none, or (warned) the key is of another type. Other failures are thrown. */
async function stringAt(redis: Redis, key: string, what: string, consequence: string): Promise<string | undefined> {
  try {
    return (await redis.get(key)) ?? undefined;
  } catch (e) {
    if (!isWrongType(e)) throw e;
    return refuse(key, what, 'the key is not a string', consequence);
  }
}

function refuse(key: string, what: string, problem: string, consequence: string): undefined {
  warnBadData(key, `Redis key ${shownKey(key)} holds no ${what} (${markInvisible(problem)}): ${consequence}. Left as it is: delete it, or give the backend a prefix of its own.`);
  return undefined;
}
