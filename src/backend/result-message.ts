import { messageObject } from './stored-object.js';
import { MAX_ID_CHARS, readTaskRecord } from './task-record.js';
import type { ResultMessage } from './waiting-results-store.js';

/** A message of the results channel as read: one a mirror or the put script sends, or why it is none. */
export type ResultMessageRead = { readonly message: ResultMessage } | { readonly problem: string };

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

// A take names one conversation's waiting results, at most the bound on waiting results
// (`undeliveredResults`, default 1,000; docs/scaling.md says to keep it within this). A message naming more is refused
// whole, as bad data, rather than read up to the cap: none an engine sends is that long, so
// it was forged, and reported it shows in the bad-message warning, where a cut one would act
// on a forger's word unseen. (Each key is marked in every engine's copy and its fate read.)
/** The most results a `taken` message may name. */
const MAX_MESSAGE_KEYS = 10_000;
// A result's key is its task id (at most MAX_ID_CHARS), a line break and its run start (at
// most 16 digits): a longer one names no result, and each kept as a mark would cost its length.
const MAX_KEY_CHARS = MAX_ID_CHARS + 17;
const isKey = (v: unknown): v is string => isString(v) && v.length <= MAX_KEY_CHARS;
const isKeys = (v: unknown): v is string[] => Array.isArray(v) && v.length <= MAX_MESSAGE_KEYS && v.every(isKey);

/**
 * Reads a message of the results channel (`ResultMessage`) against the shape each `op` is
 * sent with: a fresh message of the fields that op has, or the problem found. Anyone with
 * access to the Redis can publish there; a message taken as it came could put a forged
 * result in front of a conversation, or turn a note's count into `NaN` (never shown, never
 * dropped).
 *
 * @example
 * ```ts
 * readResultMessage('{"op":"dropped","sessionId":"s","taskId":"t","key":"t\\n1"}'); // { message }
 * readResultMessage('{"op":"noted","sessionId":"s","count":"x"}'); // { problem: 'a noted message needs a whole "count" above 0' }
 * ```
 *
 * @internal
 */
export function readResultMessage(text: string): ResultMessageRead {
  const read = messageObject(text);
  if ('problem' in read) return read;
  const parsed = read.object;
  const { op, sessionId, origin } = parsed;
  if (op === 'put') {
    const read = readTaskRecord(parsed['info']);
    if ('problem' in read) return { problem: `its "info" is no task snapshot: ${read.problem}` };
    return { message: parsed['back'] === true ? { op, info: read.info, back: true } : { op, info: read.info } };
  }
  if (op !== 'dropped' && op !== 'taken' && op !== 'noted' && op !== 'renoted') return { problem: 'its "op" is not one of put, dropped, taken, noted, renoted' };
  if (!isString(sessionId)) return { problem: `a ${op} message needs a string "sessionId"` };
  if (origin !== undefined && !isString(origin)) return { problem: `the "origin" of a ${op} message must be a string` };
  if (op === 'dropped') {
    const { taskId, key } = parsed;
    if (!isString(taskId) || !isString(key)) return { problem: 'a dropped message needs a string "taskId" and "key"' };
    if (!isKey(key)) return { problem: `the "key" of a dropped message is at most ${MAX_KEY_CHARS} characters` };
    return { message: { op, sessionId, taskId, key } };
  }
  if (op === 'taken') {
    const { keys } = parsed;
    if (!isStrings(keys)) return { problem: 'a taken message needs "keys", a list of strings' };
    if (!isKeys(keys)) return { problem: `a taken message names at most ${MAX_MESSAGE_KEYS} results, each key at most ${MAX_KEY_CHARS} characters` };
    return { message: origin === undefined ? { op, sessionId, keys } : { op, sessionId, keys, origin } };
  }
  const { count, taskIds } = parsed;
  if (!isCount(count)) return { problem: `a ${op} message needs a whole "count" above 0` };
  if (!isStrings(taskIds)) return { problem: `a ${op} message needs "taskIds", a list of strings` };
  if (origin === undefined) return { problem: `a ${op} message needs a string "origin"` };
  return { message: { op, sessionId, count, taskIds, origin } };
}
