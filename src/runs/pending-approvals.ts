import type { ApprovalDecision } from '../permission/approval.js';
import type { PendingApproval } from './run-types.js';

interface Waiting {
  readonly runId: string;
  readonly approval: PendingApproval;
  readonly answer: (decision: ApprovalDecision) => void;
}

/**
 * Approvals waiting in started runs, keyed by the run at the top of their tree and the
 * approval's unique id: whoever attaches to a run (a page, over HTTP) can answer any call of
 * any task in it, and only the one it names. A model's call id is never a key: two tasks
 * whose models produced the same call id would be mixed up. Each is answered once; when its
 * run ends or is cancelled, what is still waiting is rejected (fail-closed).
 *
 * @example
 * ```ts
 * const decision = await approvals.wait(runId, { approvalId, callId, toolName, agentName }, signal);
 * approvals.answer(runId, approvalId, { decision: 'approve' }); // elsewhere
 * ```
 */
export class PendingApprovals {
  readonly #waiting = new Map<string, Waiting>();

  /** `onChange` hears of each approval that starts or stops waiting, with its run (a shared registry tells the other engines). */
  constructor(private readonly onChange?: (runId: string) => void) {}

  /**
   * Waits for an answer to `approval` in `runId`; `signal` aborting rejects it (fail-closed).
   * An id already waiting is refused at once: ids are unique, so a second one is forged.
   */
  wait(runId: string, approval: PendingApproval, signal: AbortSignal): Promise<ApprovalDecision> {
    if (this.#waiting.has(approval.approvalId)) {
      return Promise.resolve({ decision: 'reject', comment: `the approval id ${approval.approvalId} is already waiting (fail-closed)` });
    }
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = (): void => done({ decision: 'reject', comment: 'the approval was withdrawn: the call was cancelled (fail-closed)' });
      const waiting: Waiting = { runId, approval: { ...approval }, answer: (decision) => done(decision) };
      const done = (decision: ApprovalDecision): void => {
        if (this.#waiting.get(approval.approvalId) !== waiting) return;
        this.#waiting.delete(approval.approvalId);
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
        this.onChange?.(runId);
      };
      this.#waiting.set(approval.approvalId, waiting);
      this.onChange?.(runId);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Answers approval `approvalId` of `runId`. With `taskId` (`null`: the main agent's own
   * call), only when the approval belongs to that task: an answer meant for one task never
   * reaches another's. False when no such approval waits.
   */
  answer(runId: string, approvalId: string, decision: ApprovalDecision, taskId?: string | null): boolean {
    const waiting = this.#waiting.get(approvalId);
    if (!waiting || waiting.runId !== runId || !ofTask(waiting.approval, taskId)) return false;
    waiting.answer(decision);
    return true;
  }

  /** The approvals waiting in `runId`, in the order they asked. */
  pending(runId: string): PendingApproval[] {
    return [...this.#waiting.values()].filter((w) => w.runId === runId).map((w) => w.approval);
  }

  /** Rejects everything still waiting in `runId`, saying why. */
  failAll(runId: string, why: string): void {
    for (const waiting of [...this.#waiting.values()].filter((w) => w.runId === runId)) waiting.answer({ decision: 'reject', comment: why });
  }
}

/** Whether `approval` is of the task an answer names (`undefined`: the answer names none). */
export function ofTask(approval: PendingApproval, taskId: string | null | undefined): boolean {
  return taskId === undefined || (approval.taskId ?? null) === taskId;
}
