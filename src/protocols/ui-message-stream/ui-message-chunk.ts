import type { JsonValue } from '../../events/json.js';

/**
 * One chunk of the AI SDK's UI message stream protocol (v1: what `useChat` and
 * `readUIMessageStream` read), the shapes this library sends. Written here rather than taken
 * from the `ai` package, which is not a dependency: the protocol is the contract.
 */
export type UiMessageChunk = UiStartChunk | UiStepChunk | UiPartBoundaryChunk | UiDeltaChunk | UiToolChunk | UiDataChunk | UiFinishChunk | UiErrorChunk;

/** The message begins. */
export interface UiStartChunk {
  /** The chunk's kind. */
  readonly type: 'start';
  /** The assistant message's id (`msg_<runId>`). */
  readonly messageId?: string;
  /** The message's metadata: the `runId` and `sessionId`. */
  readonly messageMetadata?: JsonValue;
}

/** A step of the main agent (one model request and its tool calls) begins or ends. */
export interface UiStepChunk {
  /** The chunk's kind. */
  readonly type: 'start-step' | 'finish-step';
}

/** A text or reasoning part opens or closes. */
export interface UiPartBoundaryChunk {
  /** The chunk's kind. */
  readonly type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end';
  /** The part's id. */
  readonly id: string;
}

/** A piece of a text or reasoning part. */
export interface UiDeltaChunk {
  /** The chunk's kind. */
  readonly type: 'text-delta' | 'reasoning-delta';
  /** The part's id. */
  readonly id: string;
  /** The new piece only. */
  readonly delta: string;
}

/** A tool call of the main agent, as a dynamic tool part (its name is not known to the client's types). */
export interface UiToolChunk {
  /** `tool-input-start` and `tool-input-available` when the model asked for the call, then its output or error. */
  readonly type: 'tool-input-start' | 'tool-input-available' | 'tool-output-available' | 'tool-output-error';
  /** The model's id for the call. */
  readonly toolCallId: string;
  /** The tool's name (on the input chunks). */
  readonly toolName?: string;
  /** The call's arguments (`tool-input-available`). */
  readonly input?: JsonValue;
  /** What the model read as the result (`tool-output-available`). */
  readonly output?: JsonValue;
  /** The failed call's result text (`tool-output-error`). */
  readonly errorText?: string;
  /** Always true: our tools are dynamic tools to the client. */
  readonly dynamic: true;
}

/** The message is complete: the run reached its own end. */
export interface UiFinishChunk {
  /** The chunk's kind. */
  readonly type: 'finish';
  /** `stop`, or `error` for a run that ended abnormally (after an `error` chunk). */
  readonly finishReason?: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
  /** The `runId` and the token `usage` of the whole tree. */
  readonly messageMetadata?: JsonValue;
}

/** The run failed: an abnormal end, or a stream that failed or was cancelled. */
export interface UiErrorChunk {
  /** The chunk's kind. */
  readonly type: 'error';
  /** What went wrong, for a person. */
  readonly errorText: string;
}

/** A data part: `useChat` keeps one part per `type` and `id`, replacing it when the same id comes again. */
export type UiDataChunk = UiTaskChunk | UiApprovalChunk;

/** A subagent's part. */
export interface UiTaskChunk {
  /** The chunk's kind. */
  readonly type: 'data-task';
  /** The task id: the same part is replaced as the task moves. */
  readonly id: string;
  /** Where the task stands. */
  readonly data: TaskProgress;
}

/** An approval's part. */
export interface UiApprovalChunk {
  /** The chunk's kind. */
  readonly type: 'data-approval';
  /** The approval id. */
  readonly id: string;
  /** The approval and, once decided, its decision. */
  readonly data: ApprovalProgress;
}

/** Where a subagent's task stands, as its `data-task` part shows it (its id is the task id). */
export interface TaskProgress {
  /** The task's id (its child session): the part's id too. */
  readonly taskId: string;
  /** The task that started this one, for a nested subagent. */
  readonly parentTaskId?: string;
  /** The multitask `index` (1 for `task`). */
  readonly index: number;
  /** The agent doing it. */
  readonly agent: string;
  /** The task's short label, as the parent wrote it. */
  readonly description: string;
  /** `queued` (waiting for a slot of the multitask pool), `running`, then how it ended. */
  readonly state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  /** The reasoning steps it has begun. */
  readonly steps: number;
  /** The tool it called last, while it runs. */
  readonly lastTool?: string;
  /** Its answer, once `done`. */
  readonly answer?: string;
  /** Why it failed or was cancelled. */
  readonly error?: string;
}

/**
 * An approval the run waits for (a `data-approval` part, id the approval id), then its
 * decision. Answer it with `POST /runs/:runId/approvals/:approvalId` of `runsHandler` (the
 * run id is in the `start` chunk's metadata), or `engine.runs.answer`.
 */
export interface ApprovalProgress {
  /** The approval's id. */
  readonly approvalId: string;
  /** The task asking, when a subagent asks. */
  readonly taskId?: string;
  /** The tool the call would run. */
  readonly toolName: string;
  /** The call's arguments (in the pending part). */
  readonly args?: JsonValue;
  /** Why approval is needed (pending), or the decider's note (decided). */
  readonly reason?: string;
  /** `pending`, then the decision. */
  readonly state: 'pending' | 'approve' | 'reject';
}
