import type { TaskInfo, TaskState } from '../delegation/task-tracker.js';
import { isPlainObject, storedObject } from './stored-object.js';

/** One field of a record shape: whether it must be there, its check, and what it must be (for the refusal). */
interface Field {
  readonly required: boolean;
  readonly check: (value: unknown) => boolean;
  readonly is: string;
  /** What of a value that passed is kept (default: all of it). */
  readonly pick?: (value: unknown) => unknown;
}

// Ids we generate (a task's, an engine's) are short: one past this bound was planted. A
// session id, an agent's name, a description or a result are as long as their user or model
// made them (`engine.start` takes any session id; a child's answer is stored uncut), so only
// their type is checked: a bound here would refuse records an engine really writes. Times are
// epoch milliseconds a Date can hold: `1e999` parses to Infinity, and a start no later run
// could pass would pin the task (see `SharedTasks.#put`).
/** The longest task or run id a stored record may name: ids an engine makes are short, a longer one was planted. */
export const MAX_ID_CHARS = 1024;
const MAX_TIME = 8.64e15;
const METRICS = ['promptTokens', 'completionTokens', 'totalTokens', 'durationMs', 'tasks'] as const;

const isId = (v: unknown): boolean => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_CHARS;
const isName = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
const isText = (v: unknown): boolean => typeof v === 'string';
const isTime = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= MAX_TIME;
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
// The five numbers a run's metrics hold; another field (a later engine's) is dropped by `pick`.
const isMetrics = (v: unknown): boolean => isPlainObject(v) && METRICS.every((key) => Object.hasOwn(v, key) && isCount(v[key]));
const pickMetrics = (v: unknown): unknown => Object.fromEntries(METRICS.map((key) => [key, (v as Record<string, unknown>)[key]]));

const need = (check: Field['check'], is: string, pick?: Field['pick']): Field => ({ required: true, check, is, ...(pick ? { pick } : {}) });
const may = (field: Field): Field => ({ ...field, required: false });

const ID = need(isId, `a non-empty string of at most ${MAX_ID_CHARS} characters`);
const NAME = need(isName, 'a non-empty string');
const TEXT = need(isText, 'a string');
const TIME = need(isTime, `epoch milliseconds (a whole number from 0 to ${MAX_TIME})`);
const STATE = need((v) => typeof v === 'string' && Object.hasOwn(SHAPES, v), 'one of queued, running, done, failed, cancelled');
const COMMON = { taskId: ID, agentName: NAME, description: TEXT, sessionId: NAME, parentRunId: NAME, background: need((v) => typeof v === 'boolean', 'true or false'), state: STATE, startedAt: TIME, owner: may(ID) };
const SETTLED = { ...COMMON, endedAt: TIME, result: TEXT, metrics: may(need(isMetrics, `{ ${METRICS.join(', ')} }, each a number from 0`, pickMetrics)) };

/**
 * The one shape of each state's record, as an engine publishes it (`SharedTasks.publish`:
 * a `TaskInfo` and the `owner` running it): every field it may have; another state's field
 * refuses it, a field no state has is dropped (engines of a later version may add one). A
 * `queued` task is a `multitask` child waiting for a slot (never a background task) and
 * names the engine holding it; neither it nor a `running` one has ended, so neither has an
 * end, a result or metrics; a settled one (`done`, `failed`, `cancelled`) has its end and
 * result. Anything else was planted or broken: a "running" record with a result, taken as
 * is, would show a task both live and ended.
 */
const SHAPES: Readonly<Record<TaskState, Readonly<Record<string, Field>>>> = {
  queued: { ...COMMON, background: need((v) => v === false, 'false (a queued task is a multitask child, never a background task)'), owner: ID },
  running: COMMON,
  done: SETTLED,
  failed: SETTLED,
  cancelled: SETTLED,
};

/** A task record read from Redis: the task and the instance that runs it, or why it is none. */
export type TaskRecordRead = { readonly info: TaskInfo; readonly owner?: string } | { readonly problem: string };

/**
 * Reads a task record (JSON text from Redis, or a message's parsed object) against the
 * shape of its state (`SHAPES` above): a fresh object of the fields that shape lists, or the
 * problem found (for a warning naming where it was). What is stored there is not trusted:
 * one bad entry must not stop every engine from starting (the loaders read all of them) nor
 * reach a consumer of `engine.tasks`. A field whose value is `undefined` (a message built
 * with an absent owner) is absent.
 *
 * @example
 * ```ts
 * readTaskRecord('{"taskId":"task_1","state":"done",...,"owner":"instance_x"}'); // { info, owner: 'instance_x' }
 * readTaskRecord('{"taskId":"task_1","state":"running","result":"x",...}'); // { problem: 'a running record has no field "result"' }
 * ```
 */
export function readTaskRecord(stored: unknown): TaskRecordRead {
  const v = storedObject(stored);
  if (!v) return { problem: 'it is not a JSON object' };
  const state = Object.hasOwn(v, 'state') ? v['state'] : undefined;
  if (!STATE.check(state)) return { problem: `its state is not ${STATE.is}` };
  const shape = SHAPES[state as TaskState];
  const read: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    // Another state's field contradicts this one; a field no state has (an engine of a later
    // version, a `__proto__`) is left out of the fresh object below, not refused.
    if (v[key] !== undefined && !Object.hasOwn(shape, key) && Object.hasOwn(SETTLED, key)) return { problem: `a ${String(state)} record has no field ${JSON.stringify(key)}` };
  }
  for (const [key, field] of Object.entries(shape)) {
    const value = Object.hasOwn(v, key) ? v[key] : undefined;
    if (value === undefined && !field.required) continue;
    if (field.check(value)) read[key] = field.pick ? field.pick(value) : value;
    else return { problem: value === undefined ? `a ${String(state)} record needs ${key} (${field.is})` : `${key} must be ${field.is} in a ${String(state)} record` };
  }
  const { owner, ...info } = read;
  return typeof owner === 'string' ? { info: info as unknown as TaskInfo, owner } : { info: info as unknown as TaskInfo };
}

/**
 * A task snapshot read from Redis (JSON text, or a message's parsed object), or undefined
 * when it is not one ({@link readTaskRecord}, without the owner).
 *
 * @example
 * ```ts
 * parseTaskInfo('{"taskId":"task_1","state":"done",...}'); // the snapshot
 * parseTaskInfo('[null]'); // undefined
 * ```
 */
export function parseTaskInfo(stored: unknown): TaskInfo | undefined {
  const read = readTaskRecord(stored);
  return 'info' in read ? read.info : undefined;
}

/**
 * Whether a task has not settled yet: `queued` (waiting for a pool slot) or `running`. A
 * queued task is as live as a running one for every engine: listed, cancelled, waited for.
 */
export function isLive(info: Pick<TaskInfo, 'state'>): boolean {
  return info.state === 'queued' || info.state === 'running';
}

/**
 * A stored or published task with the instance that runs it ({@link readTaskRecord}), or
 * undefined when it is none; `owner` is not part of a `TaskInfo` a user sees.
 *
 * @example
 * ```ts
 * parseOwnedTask('{"taskId":"task_1",...,"owner":"instance_x"}'); // { info, owner: 'instance_x' }
 * ```
 */
export function parseOwnedTask(stored: unknown): { readonly info: TaskInfo; readonly owner?: string } | undefined {
  const read = readTaskRecord(stored);
  return 'info' in read ? read : undefined;
}
