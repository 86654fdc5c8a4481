import type { JsonValue } from '../events/json.js';

/** What the engine's `approve` handler is asked when a rule says `ask`. */
export interface ApprovalRequest {
  readonly runId: string;
  readonly sessionId: string;
  readonly callId: string;
  readonly toolName: string;
  /** The call's arguments, as the model sent them. */
  readonly args: JsonValue;
  /** Why approval is needed (the permission decision's reason). */
  readonly reason: string;
  readonly agentName: string;
  /** Set when the call comes from a delegated task. */
  readonly taskId?: string;
}

/**
 * A human's answer. `always` approves and is remembered as an allow rule for the session;
 * `comment` reaches the model with a rejection.
 */
export interface ApprovalDecision {
  readonly decision: 'approve' | 'reject' | 'always';
  readonly comment?: string;
}

/**
 * Answers approval requests. `signal` aborts when the run is cancelled: stop waiting then.
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
