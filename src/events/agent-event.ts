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
  readonly id: string;
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
}

/** A run begins. The first event of every run. */
export interface RunStartEvent extends EventBase {
  readonly type: 'RunStart';
  readonly sessionId: string;
  readonly prompt: string;
}

/** The size of the context about to be sent to the model (tokens are an estimate). */
export interface ContextSizeEvent extends EventBase {
  readonly type: 'ContextSize';
  readonly messageCount: number;
  readonly tokenCount: number;
}

/** A reasoning step (one model request) begins. Steps count from 1. */
export interface ReasonStartEvent extends EventBase {
  readonly type: 'ReasonStart';
  readonly step: number;
}

/** A piece of streamed model output: answer text or thinking. */
export interface ReasonDeltaEvent extends EventBase {
  readonly type: 'ReasonDelta';
  readonly step: number;
  readonly kind: 'text' | 'thinking';
  readonly text: string;
}

/** A reasoning step ends with the model's full text and the tool calls it asked for. */
export interface ReasonEndEvent extends EventBase {
  readonly type: 'ReasonEnd';
  readonly step: number;
  readonly text: string;
  readonly toolCalls: readonly ToolCallInfo[];
  readonly durationMs: number;
}

/** The tool calls of a step are about to run (one after another). */
export interface ActionStartEvent extends EventBase {
  readonly type: 'ActionStart';
  readonly step: number;
  readonly toolCalls: readonly ToolCallInfo[];
}

/** One tool call starts. */
export interface ToolCallStartEvent extends EventBase {
  readonly type: 'ToolCallStart';
  readonly step: number;
  readonly callId: string;
  readonly toolName: string;
  readonly args: JsonValue;
}

/** One tool call ends; `text` is what the model reads, `error` is set when it failed. */
export interface ToolCallEndEvent extends EventBase {
  readonly type: 'ToolCallEnd';
  readonly step: number;
  readonly callId: string;
  readonly toolName: string;
  readonly text: string;
  readonly error?: string;
  readonly durationMs: number;
}

/** Every tool call of a step has ended. */
export interface ActionEndEvent extends EventBase {
  readonly type: 'ActionEnd';
  readonly step: number;
}

/** The agent's plan changed (emitted by the `todo` tool). */
export interface PlanEvent extends EventBase {
  readonly type: 'Plan';
  readonly todos: readonly TodoItem[];
}

/** A tool call waits for a human decision. */
export interface HITLPendingEvent extends EventBase {
  readonly type: 'HITLPending';
  readonly callId: string;
  readonly toolName: string;
  readonly args: JsonValue;
  readonly reason: string;
}

/** A human (or the fail-closed default) decided on a pending tool call. */
export interface HITLDecidedEvent extends EventBase {
  readonly type: 'HITLDecided';
  readonly callId: string;
  readonly toolName: string;
  readonly decision: 'approve' | 'reject';
  readonly comment?: string;
}

/**
 * A run ends. Unwrapped, it is the last value of its stream; wrapped in a `TaskWrap` it only
 * says that one child ended.
 */
export interface RunEndEvent extends EventBase {
  readonly type: 'RunEnd';
  readonly text: string;
  /** True when the run ended on a failure it turned into this event (see `error`). */
  readonly abnormal: boolean;
  /** The failure's message when `abnormal`. */
  readonly error?: string;
  readonly metrics: RunMetrics;
  /** How many ReAct steps the run made. */
  readonly steps: number;
}

/**
 * A child run's event, carried in its parent's stream. `runId` and `agentName` are the
 * child's; `parentRunId` is the run that called `task` or `multitask`.
 */
export interface TaskWrapEvent extends EventBase {
  readonly type: 'TaskWrap';
  readonly parentRunId: string;
  /** The child session; unique per delegated task, kept when the task is resumed. */
  readonly taskId: string;
  /** The multitask `index` (1 for `task`). */
  readonly taskIndex: number;
  readonly taskAgentName: string;
  readonly taskDescription: string;
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
  | 'TaskWrap';

/** The event interface for a given `type`, e.g. `EventOfType<'RunEnd'>` is `RunEndEvent`. */
export type EventOfType<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
