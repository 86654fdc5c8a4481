/**
 * `rxharness/client`: what a browser (or an edge runtime, or another process) needs to
 * follow, start, steer and show the runs of a `runsHandler` server, with no Node import:
 * the event types, their guards and operators, the UI item projection, the task-tree reducer, and
 * `fromRun`/`startRun`/`answerApproval`/`cancelRun`/`cancelTask`/`getRun` and the conversations
 * (`listSessions`/`getSession`/`deleteSession`) over `fetch`.
 *
 * It bundles for the browser as it is (`test/client/browser-bundle.test.ts` checks it with
 * esbuild, `platform: 'browser'`, no Node shims).
 *
 * @example
 * ```ts
 * import { fromRun, startRun, toUiItem } from 'rxharness/client';
 *
 * const { runId } = await startRun('/api', { prompt: 'Survey this project' });
 * fromRun('/api', runId).subscribe(({ event }) => {
 *   const item = toUiItem(event);
 *   if (item?.kind === 'text-delta') output.append(item.text);
 * });
 * ```
 *
 * @module rxharness/client
 */

// Following and steering runs over HTTP.
export { fromRun, type FromRunOptions } from './from-run.js';
export {
  answerApproval, cancelRun, cancelTask, getRun, startRun, type ApprovalTarget, type FetchFunction, type RequestOptions, type StartRunInput, type StartedRun,
} from './run-requests.js';
// Conversations: list, open (to continue with startRun's sessionId), forget.
export { deleteSession, getSession, listSessions, type ListSessionsOptions, type SessionDetails, type SessionList } from './session-requests.js';
export type { SessionSummary } from '../session/session-store.js';
export type { AssistantMessage, ChatMessage, ChatToolCall, SystemMessage, ToolMessage, UserMessage } from '../model/chat-message.js';
export { RunConnectionError, RunRequestError, RunStreamError } from './client-errors.js';
export type { PendingApproval, RunInfo, RunState, SequencedEvent } from '../runs/run-types.js';
export type { ApprovalDecision } from '../permission/approval.js';

// Events: the vocabulary, guards and consumer operators.
export type {
  ActionEndEvent,
  ActionStartEvent,
  AgentEvent,
  AgentEventType,
  BudgetEvent,
  CompactionEvent,
  ContextSizeEvent,
  EventBase,
  EventOfType,
  HITLDecidedEvent,
  HITLPendingEvent,
  PlanEvent,
  ReasonDeltaEvent,
  ReasonEndEvent,
  ReasonStartEvent,
  RunCancelledEvent,
  RunEndEvent,
  RunStartEvent,
  StepUsage,
  TaskQueuedEvent,
  TaskWrapEvent,
  TodoItem,
  ToolCallEndEvent,
  ToolCallInfo,
  ToolCallStartEvent,
  WarningEvent,
} from '../events/agent-event.js';
export type { JsonObject, JsonValue } from '../events/json.js';
export type { RunMetrics } from '../events/run-metrics.js';
export { isAgentEvent, isRunEnd, isTaskWrap, isWellFormedEvent } from '../events/guards.js';
export { eventText } from '../events/event-text.js';
export { ofEventType } from '../events/operators/of-event-type.js';
export { terminalRunEnd } from '../events/operators/terminal-run-end.js';
export { unwrapEvent, unwrapTaskEvents, type TaskFrame, type UnwrappedEvent } from '../events/operators/unwrap-task-events.js';

// UI items: one flat, JSON-ready item per interesting event.
export { toUiItem, toUiItems } from '../adapters/ui-dto.js';
export type {
  ApprovalDecidedItem,
  ApprovalPendingItem,
  BudgetItem,
  CompactionItem,
  PlanItem,
  ResultItem,
  RunStartItem,
  TaskCancelledItem,
  TaskEndItem,
  TaskQueuedItem,
  TaskStartItem,
  TextDeltaItem,
  ThinkingDeltaItem,
  ToolEndItem,
  ToolStartItem,
  UiChildItemBase,
  UiItem,
  UiItemBase,
  UiItemKind,
  UiTaskFields,
  WarningItem,
} from '../adapters/ui-item.js';

// The task tree: the one browser-safe reducer behind the page and the terminal tree.
export {
  createTreeState, elapsedMs, reduceTree, settleTree, tokensByAgent, treeRows, waitingApprovals,
  type TaskTreeState, type ToolCallApproval, type ToolCallRecord, type ToolCallStatus, type TreeNode, type TreeRow, type TreeStatus, type WaitingApproval,
} from '../adapters/task-tree/index.js';

// Errors: a stable `name` and `code` each, and a cross-realm `isInstance`.
export { RxHarnessError } from '../errors/rxharness-error.js';
export { AbortError } from '../errors/abort-error.js';
