import type { ApprovalDecision } from '../permission/approval.js';

interface Waiting {
  readonly runId: string;
  readonly callId: string;
  readonly answer: (decision: ApprovalDecision) => void;
}

/**
 * Approvals waiting in started runs, keyed by the run at the top of their tree and the
 * call's id: whoever attaches to a run (a page, over HTTP) can answer any call of any task
 * in it. Each is answered once; when its run ends or is cancelled, what is still waiting is
 * rejected (fail-closed).
 *
 * @example
 * ```ts
 * const decision = await approvals.wait(runId, callId, signal);
 * approvals.answer(runId, callId, { decision: 'approve' }); // elsewhere
 * ```
 */
export class PendingApprovals {
  readonly #waiting: Waiting[] = [];

  /** `onChange` hears of each call that starts or stops waiting, with its run (a shared registry tells the other engines). */
  constructor(private readonly onChange?: (runId: string) => void) {}

  /** Waits for an answer to `callId` in `runId`; `signal` aborting rejects it (fail-closed). */
  wait(runId: string, callId: string, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = (): void => done({ decision: 'reject', comment: 'the approval was withdrawn: the call was cancelled (fail-closed)' });
      const waiting: Waiting = { runId, callId, answer: (decision) => done(decision) };
      const done = (decision: ApprovalDecision): void => {
        const at = this.#waiting.indexOf(waiting);
        if (at < 0) return;
        this.#waiting.splice(at, 1);
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
        this.onChange?.(runId);
      };
      this.#waiting.push(waiting);
      this.onChange?.(runId);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers the first waiting call `callId` of `runId`. False when none waits. */
  answer(runId: string, callId: string, decision: ApprovalDecision): boolean {
    const waiting = this.#waiting.find((w) => w.runId === runId && w.callId === callId);
    if (!waiting) return false;
    waiting.answer(decision);
    return true;
  }

  /** The calls waiting in `runId`, in the order they asked. */
  pending(runId: string): string[] {
    return this.#waiting.filter((w) => w.runId === runId).map((w) => w.callId);
  }

  /** Rejects everything still waiting in `runId`, saying why. */
  failAll(runId: string, why: string): void {
    for (const waiting of this.#waiting.filter((w) => w.runId === runId)) waiting.answer({ decision: 'reject', comment: why });
  }
}
