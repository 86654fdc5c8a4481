import type { JsonValue } from '../events/json.js';

/** What the engine's `approve` handler is asked when a rule says `ask`. */
export interface ApprovalRequest {
  /** The run making the call. */
  readonly runId: string;
  /** That run's session (for a delegated task: the task id). */
  readonly sessionId: string;
  /** This approval's unique id, as in the `HITLPending` event: what an answer over `engine.runs` or HTTP names. */
  readonly approvalId: string;
  /** The model's id for the call, as in the `HITLPending` event (not unique: two tasks' models may pick the same). */
  readonly callId: string;
  /** The tool the call would run. */
  readonly toolName: string;
  /** The call's arguments, as the model sent them. */
  readonly args: JsonValue;
  /** Why approval is needed (the permission decision's reason). */
  readonly reason: string;
  /** The agent making the call (`main` for the main agent). */
  readonly agentName: string;
  /** Set when the call comes from a delegated task. */
  readonly taskId?: string;
  /** With `taskId`: the task as the live tree names it, e.g. `explore#2 find the tests` (agent, `#index` in a multitask, description). */
  readonly taskLabel?: string;
  /** The run at the top of the tree (the main agent's run), where a started run's approvals are answered. */
  readonly rootRunId?: string;
}

/**
 * A human's answer. `always` approves and is remembered as an allow rule for the session;
 * `comment` reaches the model with a rejection.
 */
export interface ApprovalDecision {
  /** `approve` runs the call, `reject` refuses it, `always` approves it and every later call of the same tool on the same subject in this conversation. */
  readonly decision: 'approve' | 'reject' | 'always';
  /** A note for the model; with a rejection it reads it in the tool result, so say what to do instead. */
  readonly comment?: string;
}

/**
 * Answers approval requests. `signal` aborts when the run is cancelled or the engine's
 * `approvalTimeoutMs` passes without an answer: stop waiting (withdraw the question) then.
 *
 * @example
 * ```ts
 * const approve: ApprovalHandler = (request) =>
 *   request.toolName === 'bash' && JSON.stringify(request.args).includes('rm ')
 *     ? { decision: 'reject', comment: 'no deleting' }
 *     : { decision: 'approve' };
 * ```
 */
export type ApprovalHandler = (
  request: ApprovalRequest,
  options: { signal: AbortSignal },
) => ApprovalDecision | Promise<ApprovalDecision>;
