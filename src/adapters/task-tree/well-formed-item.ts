import { fits, isObject, type Kind } from '../../events/field-kinds.js';
import type { UiItem, UiItemKind } from '../ui-item.js';

// What `isWellFormedEvent` is to events, for UI items: a page that receives items over a
// socket (`toUiItems()` on the server, `JSON.stringify` in between) folds what arrives into
// `reduceTree`, whose code reads each field without looking. A broken or hostile sender's
// item without them threw out of the reducer, or was kept and threw at every later draw.

const TASK: Readonly<Record<string, Kind>> = {
  parentRunId: 'string', taskId: 'string', taskIndex: 'number', taskAgentName: 'string', taskDescription: 'string', multitask: 'boolean', groupKey: 'string',
};
const END: Readonly<Record<string, Kind>> = { text: 'string', abnormal: 'boolean', error: 'string?', metrics: 'metrics', steps: 'number' };
const CALL: Readonly<Record<string, Kind>> = { callId: 'string', toolName: 'string' };

/** The fields each kind promises, besides `runId`, `agentName`, `depth` (and the task's, for a task's own kinds). */
const FIELDS: Readonly<Record<UiItemKind, Readonly<Record<string, Kind>>>> = {
  'run-start': { sessionId: 'string', prompt: 'string' },
  'text-delta': { step: 'number', text: 'string' },
  'thinking-delta': { step: 'number', text: 'string' },
  'tool-start': { step: 'number', ...CALL, args: 'json' },
  'tool-end': { step: 'number', ...CALL, text: 'string', error: 'string?', durationMs: 'number' },
  'task-queued': TASK,
  'task-start': { ...TASK, sessionId: 'string', prompt: 'string' },
  'task-end': { ...TASK, ...END },
  'task-cancelled': { ...TASK, reason: 'string' },
  warning: { code: 'string', message: 'string' },
  budget: { step: 'number', limit: 'number', used: 'number', remaining: 'number' },
  compaction: { reason: 'string', contextWindow: 'number', tokensBefore: 'number', tokensAfter: 'number', prunedToolResults: 'number', summarisedMessages: 'number' },
  'approval-pending': { approvalId: 'string', ...CALL, args: 'json', reason: 'string' },
  'approval-decided': { approvalId: 'string', ...CALL, decision: 'string', comment: 'string?', timedOut: 'boolean?' },
  plan: { todos: 'todos' },
  result: END,
};
// Entries made once: the check runs for every item a page draws.
const FIELD_LISTS = new Map(Object.entries(FIELDS).map(([kind, fields]) => [kind, Object.entries(fields)]));
const TASK_LIST = Object.entries(TASK);
const OWN_RUN: ReadonlySet<string> = new Set<UiItemKind>(['run-start', 'result']);

/**
 * Whether an unknown value is a {@link UiItem} with every field its `kind` promises: a known
 * `kind`, string `runId` and `agentName`, a whole `depth` from 0, and each field of its kind
 * of the right type (a delta's `text` a string, an end's `metrics` five numbers). An item of
 * a task carries all the task fields, `groupKey` included, or (for the kinds a streamed run
 * has too) none of them. A `run-start` or `result` is the streamed run's own: at depth 0,
 * with no task field set (a child's end is a `task-end`, never the run's result); a task
 * field present but `undefined` is as good as absent, as it is once written as JSON.
 * Internal: `reduceTree` checks every UI item with it, so a page need not.
 *
 * @example
 * ```ts
 * // in reduceTree: an item read from a socket that fails it leaves the tree as it was
 * if (!isWellFormedUiItem(item)) return state;
 * ```
 */
export function isWellFormedUiItem(value: unknown): value is UiItem {
  if (!isObject(value) || typeof value.kind !== 'string') return false;
  const fields = FIELD_LISTS.get(value.kind);
  if (fields === undefined || typeof value.runId !== 'string' || typeof value.agentName !== 'string') return false;
  if (!Number.isSafeInteger(value.depth) || (value.depth as number) < 0) return false;
  if (!fields.every(([name, kind]) => fits(value[name], kind))) return false;
  // The streamed run's own start and end: a task's are `task-start` and `task-end`, so one
  // naming a task (a child's end passed off as the run's result) is refused.
  if (OWN_RUN.has(value.kind)) return value.depth === 0 && TASK_LIST.every(([name]) => value[name] === undefined);
  // A task's item names all of its task, or (a streamed run's own item) none of it.
  return value.groupKey === undefined || TASK_LIST.every(([name, kind]) => fits(value[name], kind));
}
