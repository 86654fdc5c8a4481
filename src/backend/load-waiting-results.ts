import type { Redis } from 'ioredis';
import { resultKey } from '../delegation/undelivered-results.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { loadHash } from './load-hash.js';
import type { RedisKeys } from './redis-keys.js';
import { RefusedRecords } from './refused-records.js';
import { isRecordedGone } from './results-gone.js';
import { readTaskRecord } from './task-record.js';
import { parseDroppedNote } from './dropped-note-store.js';

/** Where a loaded result or note goes. */
export interface WaitingSink {
  result(info: TaskInfo): void;
  note(sessionId: string, note: { count: number; taskIds: string[] }): void;
}

/**
 * Loads the background results and notes of dropped ones waiting in Redis, as a backend
 * starts. An entry that is no result an engine or worker writes is passed over, all of them
 * in one warning per load (`RefusedRecords`), and left as it is: not a task snapshot, or one
 * filed elsewhere than a put files it (another field than its own `resultKey`, another
 * conversation's hash). Such a result, loaded, would be delivered, and its take (which
 * deletes the result's own field) would leave it there, to be delivered again by every
 * engine that starts. A note that is none (or a key of another type) is taken as none.
 *
 * @internal
 */
export async function loadWaitingResults(redis: Redis, keys: RedisKeys, sink: WaitingSink): Promise<void> {
  const refused = new RefusedRecords('background results in Redis', 'delivered');
  await scanKeys(redis, keys.results('*'), async (key) => {
    const waiting = await loadHash(redis, key, 'the background results it should hold are not delivered');
    for (const [field, text] of Object.entries(waiting)) {
      const problem = misfiled(keys, key, field, readTaskRecord(text));
      if (typeof problem === 'string') refused.add(`${key} field ${field}`, problem);
      else sink.result(problem);
    }
  });
  refused.report();
  await scanKeys(redis, keys.droppedResults('*'), async (key) => {
    const note = parseDroppedNote(await redis.get(key).catch(() => null)); // a wrong-type key is no note
    if (note) sink.note(key.slice(keys.droppedResults('').length), note);
  });
}

/**
 * The conversation's note of dropped results as Redis holds it now: the note, `null` when it
 * holds none (or a key of another type, or one that is no note), `'failed'` when Redis fails.
 *
 * @internal
 */
export async function readDroppedNote(redis: Redis, keys: RedisKeys, sessionId: string): Promise<{ count: number; taskIds: string[] } | null | 'failed'> {
  try {
    return parseDroppedNote(await redis.get(keys.droppedResults(sessionId))) ?? null;
  } catch (err) {
    return err instanceof Error && err.message.startsWith('WRONGTYPE') ? null : 'failed';
  }
}

/**
 * The result of `info`'s task and run waiting in Redis now, as stored there, or undefined
 * when there is none (taken, dropped, never put), it is none a put writes, or Redis fails.
 *
 * @internal
 */
export async function readWaitingResult(redis: Redis, keys: RedisKeys, info: TaskInfo): Promise<TaskInfo | undefined> {
  return readWaitingResultAt(redis, keys, info.sessionId, resultKey(info));
}

/**
 * The result Redis holds for the conversation under `field` (a `resultKey`), as
 * {@link readWaitingResult} reads it: undefined when there is none a put writes there.
 *
 * @internal
 */
export async function readWaitingResultAt(redis: Redis, keys: RedisKeys, sessionId: string, field: string): Promise<TaskInfo | undefined> {
  const key = keys.results(sessionId);
  const text = await redis.hget(key, field).catch(() => null); // a key of another type holds none
  if (text === null) return undefined;
  const read = misfiled(keys, key, field, readTaskRecord(text));
  return typeof read === 'string' ? undefined : read;
}

/**
 * What Redis says of the conversation's result `field` (a `resultKey`) now: the result, when
 * it waits there (as {@link readWaitingResultAt} reads it); `'gone'` when it was taken or
 * dropped (`RedisKeys.resultsGone`); undefined when neither (never put yet, or expired);
 * `'failed'` when Redis fails. A `taken` or `dropped` message is believed only on `'gone'`.
 *
 * @internal
 */
export async function readResultFate(redis: Redis, keys: RedisKeys, sessionId: string, field: string): Promise<TaskInfo | 'gone' | 'failed' | undefined> {
  const gone = isRecordedGone(redis, keys, sessionId, field).catch(() => 'failed' as const);
  const waiting = await readWaitingResultAt(redis, keys, sessionId, field);
  const found = await gone;
  if (waiting) return waiting;
  return found === 'failed' ? found : found ? 'gone' : undefined;
}

/** The result read from `field` of `key`, or why it is none a put writes there. */
function misfiled(keys: RedisKeys, key: string, field: string, read: ReturnType<typeof readTaskRecord>): TaskInfo | string {
  if ('problem' in read) return read.problem;
  const { info } = read;
  // Named by neither id: a planted id may be megabytes long (the field is named already).
  if (field !== resultKey(info)) return 'its task and run start are not those its field names';
  if (key !== keys.results(info.sessionId)) return "it names another conversation than its key's";
  return info;
}

/** Calls `each` with every key matching `pattern` (SCAN: no one call blocks Redis). */
export async function scanKeys(redis: Redis, pattern: string, each: (key: string) => Promise<void>): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    for (const key of found) await each(key);
  } while (cursor !== '0');
}
