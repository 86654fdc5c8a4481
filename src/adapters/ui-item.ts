/**
 * The flat, JSON-serialisable items a UI renders, one per interesting event. See
 * {@link toUiItem} for the projection rules.
 *
 * @module
 */
import type { JsonValue, RunMetrics, TodoItem } from '../events/index.js';

/** Every `kind` a {@link UiItem} can have. */
export type UiItemKind = UiItem['kind'];

/**
 * Which delegated task an item belongs to: the fields of the innermost `TaskWrap` frame.
 * Present on every item of a child run (depth ≥ 1), absent on the streamed run's own items.
 */
export interface UiTaskFields {
  /** The run that called `task`/`multitask`. */
  readonly parentRunId: string;
  /** The child session; unique per delegated task. */
  readonly taskId: string;
  /** The multitask `index` (1 for `task`). */
  readonly taskIndex: number;
  /** The agent the task was given to. Several parallel tasks may share it. */
  readonly taskAgentName: string;
  /** The task's short label. */
  readonly taskDescription: string;
  /** Whether the task came from `multitask`. */
  readonly multitask: boolean;
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
  readonly kind: 'run-start';
  readonly sessionId: string;
  readonly prompt: string;
}

/** A piece of answer text (`ReasonDelta` of kind `text`). */
export interface TextDeltaItem extends UiItemBase {
  readonly kind: 'text-delta';
  readonly step: number;
  readonly text: string;
}

/** A piece of thinking (`ReasonDelta` of kind `thinking`). */
export interface ThinkingDeltaItem extends UiItemBase {
  readonly kind: 'thinking-delta';
  readonly step: number;
  readonly text: string;
}

/** A tool call began. */
export interface ToolStartItem extends UiItemBase {
  readonly kind: 'tool-start';
  readonly step: number;
  readonly callId: string;
  readonly toolName: string;
  readonly args: JsonValue;
}

/** A tool call ended; `error` is set when it failed or was refused. */
export interface ToolEndItem extends UiItemBase {
  readonly kind: 'tool-end';
  readonly step: number;
  readonly callId: string;
  readonly toolName: string;
  readonly text: string;
  readonly error?: string;
  readonly durationMs: number;
}

/** A delegated task began (a wrapped `RunStart`). */
export interface TaskStartItem extends UiChildItemBase {
  readonly kind: 'task-start';
  readonly sessionId: string;
  readonly prompt: string;
}

/** A delegated task ended (a wrapped `RunEnd`): only that task, never the whole run. */
export interface TaskEndItem extends UiChildItemBase {
  readonly kind: 'task-end';
  readonly text: string;
  readonly abnormal: boolean;
  readonly error?: string;
  readonly metrics: RunMetrics;
  readonly steps: number;
}

/** A tool call waits for a human decision. */
export interface ApprovalPendingItem extends UiItemBase {
  readonly kind: 'approval-pending';
  readonly callId: string;
  readonly toolName: string;
  readonly args: JsonValue;
  readonly reason: string;
}

/** A pending tool call was approved or rejected. */
export interface ApprovalDecidedItem extends UiItemBase {
  readonly kind: 'approval-decided';
  readonly callId: string;
  readonly toolName: string;
  readonly decision: 'approve' | 'reject';
  readonly comment?: string;
}

/** An agent's plan changed. */
export interface PlanItem extends UiItemBase {
  readonly kind: 'plan';
  readonly todos: readonly TodoItem[];
}

/** The streamed run's own end (the unwrapped `RunEnd`): the final answer. */
export interface ResultItem extends UiItemBase {
  readonly kind: 'result';
  readonly text: string;
  readonly abnormal: boolean;
  readonly error?: string;
  readonly metrics: RunMetrics;
  readonly steps: number;
}

/** One flat UI item, discriminated by `kind`. */
export type UiItem =
  | RunStartItem
  | TextDeltaItem
  | ThinkingDeltaItem
  | ToolStartItem
  | ToolEndItem
  | TaskStartItem
  | TaskEndItem
  | ApprovalPendingItem
  | ApprovalDecidedItem
  | PlanItem
  | ResultItem;
