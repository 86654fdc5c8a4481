import { filter, map, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../events/index.js';
import { isAgentEvent, unwrapEvent, type TaskFrame } from '../events/index.js';
import type { UiItem, UiItemBase, UiTaskFields } from './ui-item.js';

/**
 * Projects one event onto a flat {@link UiItem}, or `undefined` for an event a UI does not
 * need.
 *
 * Rules:
 * - `TaskWrap`s are taken off first; the item describes the innermost (real) event and
 *   carries the innermost frame's task fields plus `depth` (the number of frames) and
 *   `groupKey` = `${parentRunId}/${taskId}`. Group a task's items by `groupKey`, never by
 *   agent name: parallel tasks often run the same agent.
 * - A wrapped `RunStart` becomes `task-start`, a wrapped `RunEnd` becomes `task-end` (that
 *   task ended, nothing more), a wrapped `RunCancelled` becomes `task-cancelled` (that task
 *   was stopped). Only the unwrapped `RunEnd` becomes `result`. A `TaskQueued` becomes
 *   `task-queued`, with the waiting task's own fields, one level deeper than its parent. `Warning` becomes `warning`,
 *   `Compaction` becomes `compaction`.
 * - `ReasonDelta` becomes `text-delta` or `thinking-delta` by its `kind`.
 * - Skipped (`undefined`): `ContextSize` (bookkeeping), `ReasonStart`, `ActionStart` and
 *   `ActionEnd` (step boundaries; the step number is on every delta and tool item), and
 *   `ReasonEnd` (its text and tool calls already arrive as deltas and `tool-start` items).
 * - A value that is not an event at any level (`null`, a `TaskWrap` around nothing, an
 *   unknown `type`) gives `undefined` too, never an exception.
 *
 * @example
 * ```ts
 * const item = toUiItem(event);
 * if (item?.kind === 'text-delta') panes.get(item.groupKey ?? 'main')?.append(item.text);
 * ```
 */
export function toUiItem(event: AgentEvent): UiItem | undefined {
  // Parsed from the network, it may be `null` or a TaskWrap around nothing: no item, no throw.
  if (!isAgentEvent(event)) return undefined;
  const { event: inner, path } = unwrapEvent(event);
  const frame = path[path.length - 1];
  const task = frame === undefined ? undefined : taskFields(frame);
  const base: UiItemBase = { runId: inner.runId, agentName: inner.agentName, depth: path.length, ...task };
  switch (inner.type) {
    case 'RunStart':
      return task === undefined
        ? { kind: 'run-start', ...base, sessionId: inner.sessionId, prompt: inner.prompt }
        : { kind: 'task-start', ...base, ...task, sessionId: inner.sessionId, prompt: inner.prompt };
    case 'ReasonDelta':
      return { kind: inner.kind === 'text' ? 'text-delta' : 'thinking-delta', ...base, step: inner.step, text: inner.text };
    case 'ToolCallStart':
      return { kind: 'tool-start', ...base, step: inner.step, callId: inner.callId, toolName: inner.toolName, args: inner.args };
    case 'ToolCallEnd':
      return {
        kind: 'tool-end', ...base, step: inner.step, callId: inner.callId, toolName: inner.toolName,
        text: inner.text, ...(inner.error === undefined ? {} : { error: inner.error }), durationMs: inner.durationMs,
      };
    case 'HITLPending':
      return { kind: 'approval-pending', ...base, approvalId: inner.approvalId, callId: inner.callId, toolName: inner.toolName, args: inner.args, reason: inner.reason };
    case 'HITLDecided':
      return {
        kind: 'approval-decided', ...base, approvalId: inner.approvalId, callId: inner.callId, toolName: inner.toolName, decision: inner.decision,
        ...(inner.comment === undefined ? {} : { comment: inner.comment }), ...(inner.timedOut ? { timedOut: true } : {}),
      };
    case 'Plan':
      return { kind: 'plan', ...base, todos: inner.todos };
    case 'RunEnd': {
      const end = {
        text: inner.text, abnormal: inner.abnormal, ...(inner.error === undefined ? {} : { error: inner.error }),
        metrics: inner.metrics, steps: inner.steps,
      };
      return task === undefined ? { kind: 'result', ...base, ...end } : { kind: 'task-end', ...base, ...task, ...end };
    }
    case 'RunCancelled':
      // Only a child is ever cancelled with an event; the streamed run itself just stops.
      return task === undefined ? undefined : { kind: 'task-cancelled', ...base, ...task, reason: inner.reason };
    case 'Warning':
      return { kind: 'warning', ...base, code: inner.code, message: inner.message };
    case 'Budget':
      return { kind: 'budget', ...base, step: inner.step, limit: inner.limit, used: inner.used, remaining: inner.remaining };
    case 'Compaction':
      return {
        kind: 'compaction', ...base, reason: inner.reason, contextWindow: inner.contextWindow, tokensBefore: inner.tokensBefore,
        tokensAfter: inner.tokensAfter, prunedToolResults: inner.prunedToolResults, summarisedMessages: inner.summarisedMessages,
      };
    case 'TaskQueued':
      return { kind: 'task-queued', runId: inner.runId, agentName: inner.taskAgentName, depth: path.length + 1, ...taskFields({ ...inner, multitask: true }) };
    case 'ContextSize':
    case 'ReasonStart':
    case 'ReasonEnd':
    case 'ActionStart':
    case 'ActionEnd':
      return undefined;
  }
}

/**
 * Maps a run's events to {@link UiItem}s, dropping the events {@link toUiItem} skips.
 *
 * @example
 * ```ts
 * engine.stream(prompt).pipe(toUiItems()).subscribe((item) => socket.send(JSON.stringify(item)));
 * ```
 */
export function toUiItems(): OperatorFunction<AgentEvent, UiItem> {
  return (source) => source.pipe(map(toUiItem), filter((item): item is UiItem => item !== undefined));
}

function taskFields(frame: TaskFrame): UiTaskFields {
  return {
    parentRunId: frame.parentRunId,
    taskId: frame.taskId,
    taskIndex: frame.taskIndex,
    taskAgentName: frame.taskAgentName,
    taskDescription: frame.taskDescription,
    multitask: frame.multitask,
    groupKey: `${frame.parentRunId}/${frame.taskId}`,
  };
}
