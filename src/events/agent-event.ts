/**
 * The event vocabulary of a run. Every event is a plain, JSON-serialisable object with a
 * `type` discriminant, the `runId` of the run that produced it and that run's `agentName`.
 * Nothing here depends on the rest of the library: events sit at the bottom of the layers.
 *
 * @module
 */
import type { JsonValue } from './json.js';
import type { RunMetrics } from './run-metrics.js';

/** Fields every event carries. */
export interface EventBase {
  /** The discriminant. */
  readonly type: AgentEventType;
  /** The run that produced the event (for a `TaskWrap`: the child run). */
  readonly runId: string;
  /** The agent of that run: `main` for the main agent, else a definition's name. */
  readonly agentName: string;
}

/** One tool call the model asked for. */
export interface ToolCallInfo {
  /** The model's id for the call; the tool result answers it. */
  readonly callId: string;
  /** The tool the model named (possibly one that does not exist). */
  readonly name: string;
  /** Parsed JSON arguments, or the raw string when the model sent invalid JSON. */
  readonly args: JsonValue;
}

/** One entry of an agent's plan, as written by the `todo` tool. */
export interface TodoItem {
  /** The model's id for the item, unique within the plan and kept across updates. */
  readonly id: string;
  /** What to do, in the model's words. */
  readonly content: string;
  /** Where the item stands. */
  readonly status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
}

/** A run begins. The first event of every run. */
export interface RunStartEvent extends EventBase {
  readonly type: 'RunStart';
  /** The conversation the run belongs to; runs with the same id continue it. */
  readonly sessionId: string;
  /**
   * The prompt the run answers. For the main agent it includes any background task results
   * put in front of the user's prompt; for a child it is the task's `prompt`.
   */
  readonly prompt: string;
}

/**
 * The size of the request about to be sent to the model. `tokenCount` is an estimate (four
 * characters a token) of everything sent: the messages and the tool schemas; the server's
 * own count arrives afterwards as the step's `ReasonEnd.usage.promptTokens`.
 */
export interface ContextSizeEvent extends EventBase {
  readonly type: 'ContextSize';
  /** How many messages the request sends: system prompt, history, prompt and this run's turns. */
  readonly messageCount: number;
  /** A rough token count of the messages and tool schemas, for watching the context grow; not the billed usage. */
  readonly tokenCount: number;
}

/** A reasoning step (one model request) begins. Steps count from 1. */
export interface ReasonStartEvent extends EventBase {
  readonly type: 'ReasonStart';
  /** The step that begins, from 1. */
  readonly step: number;
}

/** A piece of streamed model output: answer text or thinking. */
export interface ReasonDeltaEvent extends EventBase {
  readonly type: 'ReasonDelta';
  /** The step the piece belongs to. */
  readonly step: number;
  /** `text` for the answer, `thinking` for reasoning the server streams separately. */
  readonly kind: 'text' | 'thinking';
  /** The new piece only; concatenate a step's pieces of one kind for the whole. */
  readonly text: string;
}

/** A reasoning step ends with the model's full text and the tool calls it asked for. */
export interface ReasonEndEvent extends EventBase {
  readonly type: 'ReasonEnd';
  /** The step that ended. */
  readonly step: number;
  /** The model's whole answer text for the step (empty when it only called tools). */
  readonly text: string;
  /** The calls the model asked for, in its order; empty when it answered without tools. */
  readonly toolCalls: readonly ToolCallInfo[];
  /** Time from sending the request to the end of the response, in milliseconds. */
  readonly durationMs: number;
  /**
   * Why the model stopped, as the server said: `stop`, `tool_calls`, `length` (cut at its
   * token limit), `content_filter`, or another server's word. Absent when it gave none.
   */
  readonly finishReason?: string;
  /**
   * The step's token usage as the server counted it, when it reported any:
   * `usage.promptTokens` is the real size of what `ContextSize.tokenCount` estimated.
   */
  readonly usage?: StepUsage;
}

/** One model request's token usage, as the server reported it. */
export interface StepUsage {
  /** Tokens of the request (the prompt: messages and tool schemas). */
  readonly promptTokens: number;
  /** Tokens the model generated. */
  readonly completionTokens: number;
  /** The two together, as the server reported it. */
  readonly totalTokens: number;
}

/** The tool calls of a step are about to run (one after another). */
export interface ActionStartEvent extends EventBase {
  readonly type: 'ActionStart';
  /** The step whose tool calls run. */
  readonly step: number;
  /** The calls about to run, in the order they will run. */
  readonly toolCalls: readonly ToolCallInfo[];
}

/** One tool call starts. */
export interface ToolCallStartEvent extends EventBase {
  readonly type: 'ToolCallStart';
  /** The step that asked for the call. */
  readonly step: number;
  /** The model's id for the call; the matching `ToolCallEnd` carries the same one. */
  readonly callId: string;
  /** The tool the model named (possibly one that does not exist). */
  readonly toolName: string;
  /** Parsed JSON arguments, or the raw string when the model sent invalid JSON. */
  readonly args: JsonValue;
}

/** One tool call ends; `text` is what the model reads, `error` is set when it failed. */
export interface ToolCallEndEvent extends EventBase {
  readonly type: 'ToolCallEnd';
  /** The step that asked for the call. */
  readonly step: number;
  /** The id of the call that ended, as in its `ToolCallStart`. */
  readonly callId: string;
  /** The tool the model named. */
  readonly toolName: string;
  /** The tool message the model reads; the harness's own failure messages start with `ERROR: `. */
  readonly text: string;
  /**
   * Why the call failed: invalid JSON, a schema mismatch, an unknown, refused or rejected
   * tool, a throw, a timeout, or an error the tool reported. Absent when the call succeeded.
   */
  readonly error?: string;
  /** Time from the call's start (including any wait for approval) to its end, in milliseconds. */
  readonly durationMs: number;
}

/** Every tool call of a step has ended. */
export interface ActionEndEvent extends EventBase {
  readonly type: 'ActionEnd';
  /** The step whose tool calls have all ended. */
  readonly step: number;
}

/** The agent's plan changed (emitted by the `todo` tool). */
export interface PlanEvent extends EventBase {
  readonly type: 'Plan';
  /** The whole plan, in order; it replaces the previous one (empty: the plan was cleared). */
  readonly todos: readonly TodoItem[];
}

/** A tool call waits for a human decision. */
export interface HITLPendingEvent extends EventBase {
  readonly type: 'HITLPending';
  /**
   * This approval, unique across runs, engines and tasks: answer it by this id
   * (`engine.runs.answer`, `POST /runs/:id/approvals/:approvalId`). A model's call id is
   * not unique (two tasks' models may both say `call_0`), so it never names an approval.
   */
  readonly approvalId: string;
  /** The call that waits, as in its `ToolCallStart`. */
  readonly callId: string;
  /** The tool the call would run. */
  readonly toolName: string;
  /** The call's arguments, as the tool would receive them. */
  readonly args: JsonValue;
  /** Why approval is needed, naming the permission rule that asked; meant for a human. */
  readonly reason: string;
}

/** A human (or the fail-closed default) decided on a pending tool call. */
export interface HITLDecidedEvent extends EventBase {
  readonly type: 'HITLDecided';
  /** The approval that was decided, as in its `HITLPending`. */
  readonly approvalId: string;
  /** The call that was decided, as in its `HITLPending`. */
  readonly callId: string;
  /** The tool the call runs (or would have run). */
  readonly toolName: string;
  /** The outcome; an `always` answer shows here as `approve`. */
  readonly decision: 'approve' | 'reject';
  /**
   * The decider's note, when there is one. On a rejection the model reads it; a fail-closed
   * rejection says why no human was asked.
   */
  readonly comment?: string;
  /** True when nobody answered within the engine's `approvalTimeoutMs`: the call was rejected and its question withdrawn. */
  readonly timedOut?: boolean;
}

/**
 * A run ends. Unwrapped, it is the last value of its stream; wrapped in a `TaskWrap` it only
 * says that one child ended.
 */
export interface RunEndEvent extends EventBase {
  readonly type: 'RunEnd';
  /** The run's answer: the model's text of the last step (possibly empty when `abnormal`). */
  readonly text: string;
  /** True when the run ended on a failure it turned into this event (see `error`). */
  readonly abnormal: boolean;
  /** The failure's message when `abnormal`. */
  readonly error?: string;
  /** Usage and timing of the run, children included. */
  readonly metrics: RunMetrics;
  /** How many ReAct steps the run made. */
  readonly steps: number;
}

/**
 * A delegated child run was cancelled (`cancelTask`, or a background task stopped by
 * `engine.close()`). It only ever arrives wrapped in a `TaskWrap`: it is the last event of
 * that task, so a consumer can close the task's row on it. A run's own stream never carries
 * it (an unsubscribed run emits nothing more).
 */
export interface RunCancelledEvent extends EventBase {
  readonly type: 'RunCancelled';
  /** Why the run stopped, meant for a human. */
  readonly reason: string;
}

/**
 * After each step of a run that has a token budget: what is left for it and everything it
 * delegates. `limit` and `used` are those of the budget that binds (the run's own, or a
 * tighter one above it); `remaining` is never below 0. When nothing remains, the run's next
 * step is its last, without tools.
 */
export interface BudgetEvent extends EventBase {
  readonly type: 'Budget';
  /** The step that was just charged. */
  readonly step: number;
  /** The binding budget's limit, in tokens. */
  readonly limit: number;
  /** Tokens charged to it so far (this run's and its tasks'). */
  readonly used: number;
  /** Tokens still available to the run and its tasks. */
  readonly remaining: number;
}

/**
 * Something went wrong that the run could survive and wants someone to know: a session
 * store returned malformed messages (skipped), a tool tried to emit an event it may not
 * (dropped). The run goes on.
 */
export interface WarningEvent extends EventBase {
  readonly type: 'Warning';
  /** A stable, machine-readable kind, e.g. `session-entry-skipped`, `event-refused`. */
  readonly code: string;
  /** What happened and what was done about it, meant for a human. */
  readonly message: string;
}

/**
 * The run's session was compacted to fit the model's context window (docs/sessions.md):
 * old tool outputs pruned, then, if that was not enough, the oldest messages replaced by a
 * summary. Comes before the `ContextSize` of the request it made room for. The full
 * transcript stays in the store's archive (`SessionStore.loadArchive`).
 */
export interface CompactionEvent extends EventBase {
  readonly type: 'Compaction';
  /** The session that was compacted (a child's own task session for a child). */
  readonly sessionId: string;
  /**
   * `context-limit`: the next request would not have fit; `context-exceeded`: the server
   * refused a request as too long (it is then sent once more); `manual`: asked for.
   */
  readonly reason: 'context-limit' | 'context-exceeded' | 'manual';
  /** The model's context window in tokens, as far as it is known. */
  readonly contextWindow: number;
  /** Estimated tokens of the request (messages and tool schemas) before the compaction. */
  readonly tokensBefore: number;
  /** Estimated tokens of the request after it. */
  readonly tokensAfter: number;
  /** Old tool results whose output was replaced by a short note. */
  readonly prunedToolResults: number;
  /** The oldest messages a summary replaced (0: none were summarised). */
  readonly summarisedMessages: number;
  /** Why the summary kept is not the model's: none could be written (the old turns were kept when they fit, else a note took their place), or its middle was cut to fit. */
  readonly summaryError?: string;
  /** True when the store kept the full transcript apart and saved the compacted session; false when only this run's request was compacted. */
  readonly archived: boolean;
}

/**
 * A `multitask` child waits for a slot of its call's pool (`multitaskMaxTasks` children run
 * at once). Emitted by the delegating run, only for a task that has to wait; its
 * `TaskWrap(RunStart)` follows when it gets a slot. Cancelled while it waits
 * (`engine.cancelTask`), it never starts: a wrapped `RunStart` and `RunCancelled` close it.
 */
export interface TaskQueuedEvent extends EventBase {
  readonly type: 'TaskQueued';
  /** The run that called `multitask` (this event's `runId`). */
  readonly parentRunId: string;
  /** The waiting task's id, which its `TaskWrap` events will carry; `engine.cancelTask` takes it. */
  readonly taskId: string;
  /** The multitask `index`. */
  readonly taskIndex: number;
  /** The agent the task was given to. */
  readonly taskAgentName: string;
  /** The task's short label, as the parent wrote it. */
  readonly taskDescription: string;
}

/**
 * A child run's event, carried in its parent's stream. `runId` and `agentName` are the
 * child's; `parentRunId` is the run that called `task` or `multitask`.
 */
export interface TaskWrapEvent extends EventBase {
  readonly type: 'TaskWrap';
  /** The run that called `task` or `multitask`. */
  readonly parentRunId: string;
  /** The child session; unique per delegated task, kept when the task is resumed. */
  readonly taskId: string;
  /** The multitask `index` (1 for `task`). */
  readonly taskIndex: number;
  /** The agent the task was given to, as the parent named it. */
  readonly taskAgentName: string;
  /** The task's short label, as the parent wrote it. */
  readonly taskDescription: string;
  /** True when the task is part of a `multitask` call, false for `task`. */
  readonly multitask: boolean;
  /** The child's own event; itself a `TaskWrap` when a grandchild produced it. */
  readonly event: AgentEvent;
}

/** Every event a run can emit, discriminated by `type`. */
export type AgentEvent =
  | RunStartEvent
  | ContextSizeEvent
  | ReasonStartEvent
  | ReasonDeltaEvent
  | ReasonEndEvent
  | ActionStartEvent
  | ToolCallStartEvent
  | ToolCallEndEvent
  | ActionEndEvent
  | PlanEvent
  | HITLPendingEvent
  | HITLDecidedEvent
  | RunEndEvent
  | RunCancelledEvent
  | WarningEvent
  | BudgetEvent
  | CompactionEvent
  | TaskQueuedEvent
  | TaskWrapEvent;

/** The `type` of each event. */
export type AgentEventType =
  | 'RunStart'
  | 'ContextSize'
  | 'ReasonStart'
  | 'ReasonDelta'
  | 'ReasonEnd'
  | 'ActionStart'
  | 'ToolCallStart'
  | 'ToolCallEnd'
  | 'ActionEnd'
  | 'Plan'
  | 'HITLPending'
  | 'HITLDecided'
  | 'RunEnd'
  | 'RunCancelled'
  | 'Warning'
  | 'Budget'
  | 'Compaction'
  | 'TaskQueued'
  | 'TaskWrap';

/** The event interface for a given `type`, e.g. `EventOfType<'RunEnd'>` is `RunEndEvent`. */
export type EventOfType<T extends AgentEventType> = Extract<
  AgentEvent,
  {
    /** The `type` to select. */
    type: T;
  }
>;
