import type { ApprovalDecision, ApprovalRequest } from '../permission/approval.js';
import type { WireSpec } from './wire-spec.js';

/** What a launcher puts on the queue for one child run; the BullMQ job's id is `logId`. */
export interface TaskJob {
  /** The child's event log, also the job's id: unique per launch (a resume gets a new one). */
  readonly logId: string;
  /** The child's spec, to rebuild on the worker. */
  readonly spec: WireSpec;
  readonly prompt: string;
  /** The task's label and the run that delegated it: what a background result says. */
  readonly description: string;
  readonly parentRunId: string;
  /** False: only the child's lifecycle events (the parent runs under `call()`). */
  readonly streaming: boolean;
  /** How long the child's ended log is kept: the launching engine's retention, not the worker's. */
  readonly retentionMs?: number;
  /**
   * When the launcher queued it, on the launching engine's clock (the clock of the task
   * record's `startedAt`): a worker settles the record only if it is not of a later launch.
   */
  readonly queuedAt?: number;
  /**
   * The task's `startedAt` in the launching engine's tracker: the worker's result carries it,
   * so it names the same run as the engine's own copy (one result, delivered once), and a
   * resumed task's next run another (absent from an older engine: the worker's clock).
   */
  readonly taskStartedAt?: number;
  /**
   * The launching engine's `approvalTimeoutMs`: how long the child's approvals wait for an
   * answer (absent: the engine has none, or is older; the worker's own applies).
   */
  readonly approvalTimeoutMs?: number;
}

/** What a worker sends a job's launcher about an approval (on `keys.approvals(logId)`). */
export type ApprovalAsk =
  | { readonly kind: 'ask'; readonly id: string; readonly replyTo: string; readonly request: ApprovalRequest }
  | { readonly kind: 'withdraw'; readonly id: string };

/** A launcher's answer to an `ask` (on `keys.answers(replyTo)`). */
export interface ApprovalReply {
  readonly id: string;
  readonly decision: ApprovalDecision;
}
