import type { JsonValue } from '../../events/json.js';

/**
 * One chunk of the AI SDK's UI message stream protocol (v1: what `useChat` and
 * `readUIMessageStream` read), the shapes this library sends. Written here rather than taken
 * from the `ai` package, which is not a dependency: the protocol is the contract.
 */
export type UiMessageChunk =
  | { readonly type: 'start'; readonly messageId?: string; readonly messageMetadata?: JsonValue }
  | { readonly type: 'start-step' }
  | { readonly type: 'finish-step' }
  | { readonly type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end'; readonly id: string }
  | { readonly type: 'text-delta' | 'reasoning-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'tool-input-start'; readonly toolCallId: string; readonly toolName: string; readonly dynamic: true }
  | { readonly type: 'tool-input-available'; readonly toolCallId: string; readonly toolName: string; readonly input: JsonValue; readonly dynamic: true }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: JsonValue; readonly dynamic: true }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string; readonly dynamic: true }
  | UiDataChunk
  | { readonly type: 'finish'; readonly finishReason?: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other'; readonly messageMetadata?: JsonValue }
  | { readonly type: 'error'; readonly errorText: string };

/** A data part: `useChat` keeps one part per `type` and `id`, replacing it when the same id comes again. */
export type UiDataChunk =
  | { readonly type: 'data-task'; readonly id: string; readonly data: TaskProgress }
  | { readonly type: 'data-approval'; readonly id: string; readonly data: ApprovalProgress };

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
