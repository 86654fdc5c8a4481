import type { TaskInfo } from '../delegation/task-tracker.js';
import { storedObject } from './stored-object.js';

const STATES = new Set(['queued', 'running', 'done', 'failed', 'cancelled']);

/**
 * A task snapshot read from Redis (JSON text, or a message's parsed object), or undefined
 * when it is not one. What is stored there is not trusted: one bad entry must not stop every
 * engine from starting (the loaders read all of them) nor reach a consumer of `engine.tasks`.
 *
 * @example
 * ```ts
 * parseTaskInfo('{"taskId":"task_1","state":"done",...}'); // the snapshot
 * parseTaskInfo('[null]'); // undefined
 * ```
 */
export function parseTaskInfo(stored: unknown): TaskInfo | undefined {
  const v = storedObject(stored);
  if (!v) return undefined;
  const fine =
    typeof v['taskId'] === 'string' &&
    typeof v['agentName'] === 'string' &&
    typeof v['description'] === 'string' &&
    typeof v['sessionId'] === 'string' &&
    typeof v['parentRunId'] === 'string' &&
    typeof v['background'] === 'boolean' &&
    STATES.has(v['state'] as string) &&
    typeof v['startedAt'] === 'number' &&
    (v['endedAt'] === undefined || typeof v['endedAt'] === 'number') &&
    (v['result'] === undefined || typeof v['result'] === 'string');
  return fine && (v['state'] !== 'queued' || isQueuedRecord(v)) ? (v as unknown as TaskInfo) : undefined;
}

/**
 * Whether a `queued` snapshot is one an engine publishes: a `multitask` child waiting for a
 * slot (never a background task), not ended, with no result or metrics yet, naming the engine
 * that holds it (every queued record is published with its owner). Anything else was planted
 * or broken: taken for a queued task, it would be listed as waiting for ever and offered for
 * a cancel that no engine serves.
 */
function isQueuedRecord(v: Readonly<Record<string, unknown>>): boolean {
  return v['background'] === false && v['endedAt'] === undefined && v['result'] === undefined && v['metrics'] === undefined && typeof v['owner'] === 'string';
}

/**
 * Whether a task has not settled yet: `queued` (waiting for a pool slot) or `running`. A
 * queued task is as live as a running one for every engine: listed, cancelled, waited for.
 */
export function isLive(info: Pick<TaskInfo, 'state'>): boolean {
  return info.state === 'queued' || info.state === 'running';
}

/**
 * A stored or published task with the instance that runs it: the snapshot as
 * {@link parseTaskInfo} reads it, without the `owner` field (which is not part of a
 * `TaskInfo` a user sees).
 *
 * @example
 * ```ts
 * parseOwnedTask('{"taskId":"task_1",...,"owner":"instance_x"}'); // { info, owner: 'instance_x' }
 * ```
 */
export function parseOwnedTask(stored: unknown): { readonly info: TaskInfo; readonly owner?: string } | undefined {
  const parsed = parseTaskInfo(stored);
  if (!parsed) return undefined;
  const { owner, ...info } = parsed as TaskInfo & { owner?: unknown };
  return typeof owner === 'string' ? { info, owner } : { info };
}
