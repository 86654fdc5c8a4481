/**
 * The flat, JSON-serialisable items a UI renders, one per interesting event. See
 * {@link toUiItem} for the projection rules.
 *
 * @module
 */
import type { CompactionEvent, JsonValue, RunMetrics, TaskWrapEvent, TodoItem } from '../events/index.js';

/** Every `kind` a {@link UiItem} can have. */
export type UiItemKind = UiItem['kind'];

/**
 * Which delegated task an item belongs to: the fields of the innermost `TaskWrap` frame.
 * Present on every item of a child run (depth ≥ 1), absent on the streamed run's own items.
 */
export interface UiTaskFields extends Pick<TaskWrapEvent, 'parentRunId' | 'taskId' | 'taskIndex' | 'taskAgentName' | 'taskDescription' | 'multitask'> {
  /**
   * `${parentRunId}/${taskId}`: the key to group a task's items by. Never group by agent
   * name: parallel tasks often run the same agent.
   */
  readonly groupKey: string;
}

/** Fields every item carries; the task fields only on a child run's items. */
export interface UiItemBase extends Partial<UiTaskFields> {
  /** The run that produced the underlying event (the child's run for a task's items). */
  readonly runId: string;
  /** That run's agent (`main` for the main agent). */
  readonly agentName: string;
  /** 0 for the streamed run itself, 1 for its tasks, 2 for their tasks, ... */
  readonly depth: number;
}

/** The fields of a child run's items: the base with every task field required. */
export interface UiChildItemBase extends Omit<UiItemBase, keyof UiTaskFields>, UiTaskFields {}

/** The streamed run began (only for the unwrapped `RunStart`; a child's is `task-start`). */
export interface RunStartItem extends UiItemBase {
  /** Marks the streamed run's start. */
  readonly kind: 'run-start';
  /** The conversation the run belongs to. */
  readonly sessionId: string;
  /** The prompt the run answers. */
  readonly prompt: string;
}

/** A piece of answer text (`ReasonDelta` of kind `text`). */
export interface TextDeltaItem extends UiItemBase {
  /** Marks a piece of answer text. */
  readonly kind: 'text-delta';
  /** The reasoning step it belongs to, from 1. */
  readonly step: number;
  /** The new text only; append it to what the step streamed so far. */
  readonly text: string;
}

/** A piece of thinking (`ReasonDelta` of kind `thinking`). */
export interface ThinkingDeltaItem extends UiItemBase {
  /** Marks a piece of thinking. */
  readonly kind: 'thinking-delta';
  /** The reasoning step it belongs to, from 1. */
  readonly step: number;
  /** The new thinking text only; append it to what the step streamed so far. */
  readonly text: string;
}

/** A tool call began. */
export interface ToolStartItem extends UiItemBase {
  /** Marks the start of a tool call. */
  readonly kind: 'tool-start';
  /** The step that asked for the call. */
  readonly step: number;
  /** The model's id for the call; the matching `tool-end` carries the same one. */
  readonly callId: string;
  /** The tool the model named (possibly one that does not exist). */
  readonly toolName: string;
  /** Parsed JSON arguments, or the raw string when the model sent invalid JSON. */
  readonly args: JsonValue;
}

/** A tool call ended; `error` is set when it failed or was refused. */
export interface ToolEndItem extends UiItemBase {
  /** Marks the end of a tool call. */
  readonly kind: 'tool-end';
  /** The step that asked for the call. */
  readonly step: number;
  /** The id of the call that ended, as in its `tool-start`. */
  readonly callId: string;
  /** The tool the model named. */
  readonly toolName: string;
  /** The tool message the model reads; the harness's own failure messages start with `ERROR: `. */
  readonly text: string;
  /** Why the call failed or was refused; absent when it succeeded. */
  readonly error?: string;
  /** Time from the call's start (including any wait for approval) to its end, in milliseconds. */
  readonly durationMs: number;
}

/** A delegated task began (a wrapped `RunStart`). */
export interface TaskStartItem extends UiChildItemBase {
  /** Marks the start of a delegated task. */
  readonly kind: 'task-start';
  /** The child's own session: the task id. */
  readonly sessionId: string;
  /** The task's prompt, the child's only input. */
  readonly prompt: string;
}

/**
 * A `multitask` child waits for a slot of its call's pool (a `TaskQueued` event). Its fields
 * are the waiting task's own, at its depth, so a tree shows its row before it starts; its
 * `task-start` follows when it gets a slot (or a `task-start` and `task-cancelled` when it is
 * cancelled while it waits). `runId` is the delegating run's: the task has no run yet.
 */
export interface TaskQueuedItem extends UiChildItemBase {
  /** Marks a task waiting for a slot. */
  readonly kind: 'task-queued';
}

/** A delegated task ended (a wrapped `RunEnd`): only that task, never the whole run. */
export interface TaskEndItem extends UiChildItemBase {
  /** Marks the end of one delegated task. */
  readonly kind: 'task-end';
  /** The child's answer: its model's text of the last step. */
  readonly text: string;
  /** True when the child ended on a failure (see `error`). */
  readonly abnormal: boolean;
  /** The child's failure message when `abnormal`. */
  readonly error?: string;
  /** Usage and timing of the child run, its own children included. */
  readonly metrics: RunMetrics;
  /** How many ReAct steps the child made. */
  readonly steps: number;
}

/** A delegated task was cancelled (a wrapped `RunCancelled`): that task's last item. */
export interface TaskCancelledItem extends UiChildItemBase {
  /** Marks a cancelled task. */
  readonly kind: 'task-cancelled';
  /** Why it stopped, meant for a human. */
  readonly reason: string;
}

/** Something a run survived and reports (a `Warning` event). */
export interface WarningItem extends UiItemBase {
  /** Marks a warning. */
  readonly kind: 'warning';
  /** A stable, machine-readable kind, e.g. `session-entry-skipped`. */
  readonly code: string;
  /** What happened, meant for a human. */
  readonly message: string;
}

/** What is left of a run's token budget after a step (a `Budget` event). */
export interface BudgetItem extends UiItemBase {
  /** Marks a budget report. */
  readonly kind: 'budget';
  /** The step that was charged. */
  readonly step: number;
  /** The binding budget's limit, in tokens. */
  readonly limit: number;
  /** Tokens used of it so far. */
  readonly used: number;
  /** Tokens still available. */
  readonly remaining: number;
}

/**
 * The run's session was compacted to fit the context window (a `Compaction` event): its
 * reason, window and token counts, as the event has them.
 */
export interface CompactionItem
  extends UiItemBase,
    Pick<CompactionEvent, 'reason' | 'contextWindow' | 'tokensBefore' | 'tokensAfter' | 'prunedToolResults' | 'summarisedMessages'> {
  /** Marks a compaction. */
  readonly kind: 'compaction';
}

/** A tool call waits for a human decision. */
export interface ApprovalPendingItem extends UiItemBase {
  /** Marks a call waiting for approval. */
  readonly kind: 'approval-pending';
  /** The approval's unique id: what an answer names (`answerApproval`), with the item's `taskId`. */
  readonly approvalId: string;
  /** The call that waits, as in its `tool-start`. */
  readonly callId: string;
  /** The tool the call would run. */
  readonly toolName: string;
  /** The call's arguments, as the tool would receive them. */
  readonly args: JsonValue;
  /** Why approval is needed, naming the permission rule that asked; meant for a human. */
  readonly reason: string;
}

/** A pending tool call was approved or rejected. */
export interface ApprovalDecidedItem extends UiItemBase {
  /** Marks a decision on a pending call. */
  readonly kind: 'approval-decided';
  /** The approval that was decided, as in its `approval-pending`. */
  readonly approvalId: string;
  /** The call that was decided, as in its `approval-pending`. */
  readonly callId: string;
  /** The tool the call runs (or would have run). */
  readonly toolName: string;
  /** The outcome; an `always` answer shows here as `approve`. */
  readonly decision: 'approve' | 'reject';
  /** The decider's note, when there is one; on a rejection the model reads it. */
  readonly comment?: string;
  /** True when nobody answered within the engine's `approvalTimeoutMs` (the call was rejected, its question withdrawn). */
  readonly timedOut?: boolean;
}

/** An agent's plan changed. */
export interface PlanItem extends UiItemBase {
  /** Marks a plan update. */
  readonly kind: 'plan';
  /** The whole plan, in order; it replaces the previous one (empty: the plan was cleared). */
  readonly todos: readonly TodoItem[];
}

/** The streamed run's own end (the unwrapped `RunEnd`): the final answer. */
export interface ResultItem extends UiItemBase {
  /** Marks the streamed run's end. */
  readonly kind: 'result';
  /** The final answer: the model's text of the last step. */
  readonly text: string;
  /** True when the run ended on a failure (see `error`); the answer may then be partial or empty. */
  readonly abnormal: boolean;
  /** The failure's message when `abnormal`. */
  readonly error?: string;
  /** Usage and timing of the whole run, every task included. */
  readonly metrics: RunMetrics;
  /** How many ReAct steps the run made. */
  readonly steps: number;
}

/** One flat UI item, discriminated by `kind`. */
export type UiItem =
  | RunStartItem
  | TextDeltaItem
  | ThinkingDeltaItem
  | ToolStartItem
  | ToolEndItem
  | TaskQueuedItem
  | TaskStartItem
  | TaskEndItem
  | TaskCancelledItem
  | WarningItem
  | BudgetItem
  | CompactionItem
  | ApprovalPendingItem
  | ApprovalDecidedItem
  | PlanItem
  | ResultItem;
