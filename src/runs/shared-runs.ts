import type { ApprovalDecision } from '../permission/approval.js';
import type { PendingApproval, RunInfo } from './run-types.js';

/**
 * Which protocol handler started a run whose client continues it between requests: `ag-ui`, an
 * AG-UI handler's (its thread's next request, at any instance, may answer its approvals or
 * cancel it for a new turn).
 */
export type RunOrigin = 'ag-ui';

/** What the engine running a started run tells every engine sharing its backend about it. */
export interface SharedRunRecord {
  /** The run as its owner knows it now. */
  readonly info: RunInfo;
  /** The approvals waiting anywhere in its tree, in the order they asked. */
  readonly pending: readonly PendingApproval[];
  /** When a finished run stops being attachable, in epoch milliseconds; absent while it runs. */
  readonly retainUntil?: number;
  /**
   * Who started it, when a protocol's client continues it ({@link RunOrigin}). Absent for any
   * other run (`POST /runs`, A2A, `engine.start`) and in records written before origins were
   * kept (or holding a value this version does not know): read as not an AG-UI run, which no
   * AG-UI request at another instance answers or cancels (the safe reading: a new turn is then
   * refused `409`, as it is on one instance, rather than cancel a run of another client).
   */
  readonly origin?: RunOrigin;
}

/** What a registry does for the other engines: cancel its runs, answer their approvals. */
export interface RunOwner {
  /** Cancels a run this registry owns; false when it does not run it. */
  cancel(runId: string): boolean;
  /** Answers an approval waiting in a run this registry owns (of task `taskId` when given; `null`: the main agent's); false when none waits. */
  answer(runId: string, approvalId: string, decision: ApprovalDecision, taskId?: string | null): boolean;
}

/**
 * The started runs of every engine sharing a backend, seen from one of them: each owner
 * publishes its runs as they change, every engine keeps a copy (so `runs.get` and
 * `runs.list` stay synchronous), and cancels and answers for another engine's run travel to
 * its owner. The embedded default has none: an engine knows only its own runs.
 *
 * @internal
 */
export interface SharedRuns {
  /** Tells every engine the current state of a run this one owns. */
  publish(record: SharedRunRecord): void;
  /** Tells every engine that a run this one owned was evicted. */
  forget(runId: string): void;
  /** Another engine's run, as it last published it; `undefined` when unknown or past retention. */
  get(runId: string): SharedRunRecord | undefined;
  /** Every other engine's known run. */
  list(): readonly SharedRunRecord[];
  /** Asks the run's owner to cancel it; false when no engine is known to run it. */
  cancel(runId: string): boolean;
  /**
   * Sends an answer to the run's owner; false when that approval (of that task, when given)
   * is not known to wait there, else a promise of the owner's verdict (false: another answer
   * came first), which rejects with an `AnswerNotAppliedError` when the owner did not take it
   * in time (withdrawn, or taken and never confirmed).
   */
  answer(runId: string, approvalId: string, decision: ApprovalDecision, taskId?: string | null): boolean | Promise<boolean>;
  /**
   * Calls `listener` with the run id of each other engine's record that arrives, changes or is
   * forgotten here (its waiting approvals may differ); returns the stop. Not for our own runs:
   * their registry knows their changes first. Absent: records are not followed as they change.
   */
  watch?(listener: (runId: string) => void): () => void;
  /** Serves cancels and answers sent to this engine's runs; returns the stop. */
  serve(owner: RunOwner): () => void;
}
