import { defer, finalize, type MonoTypeOperatorFunction, Observable, tap } from 'rxjs';
import { BudgetSpentError } from '../model/budget-spent-error.js';
import type { BudgetReservation, TokenBudget } from '../model/token-budget.js';
import { budgetRefused } from './step-budget.js';

/**
 * Reserves for one model request (see {@link TokenBudget.reserve}) as a stream: the
 * reservation, or undefined when the budget refused it. Synchronous for a budget counted in
 * memory. A reservation that arrives after the run was stopped is given back at once: a pool
 * shared with other processes must not keep tokens nobody will settle.
 */
export function reserve$(budget: TokenBudget, estimate: number | undefined): Observable<BudgetReservation | undefined> {
  return new Observable((out) => {
    const answer = budget.reserve(estimate);
    if (!(answer instanceof Promise)) {
      out.next(answer);
      out.complete();
      return;
    }
    answer.then(
      (reservation) => {
        if (out.closed) return reservation && giveBack(reservation);
        out.next(reservation);
        out.complete();
      },
      (e: unknown) => out.error(e),
    );
  });
}

/**
 * Gives a reservation back (a no-op once it settled), charging `used`: what the request spent
 * before it failed (a compaction's summary, the estimate of a reply cut mid-stream), 0 by
 * default; a pool that cannot be reached is left to its expiry.
 */
export function giveBack(reservation: BudgetReservation, used = 0): void {
  try {
    const settled = reservation.settle(used);
    if (settled instanceof Promise) settled.catch(() => undefined);
  } catch {
    // Nothing to undo here: the run is ending anyway.
  }
}

/**
 * Gives `reservation` back when the stream ends without a value: its request failed or was
 * stopped before its usage was known (once known, the usage settles it instead). `spent`
 * says what was used meanwhile all the same (a summary made for the request, the estimate of
 * a request that failed once its reply had begun), charged then.
 */
export function givenBackUnanswered<T>(reservation: BudgetReservation, spent: () => number = () => 0): MonoTypeOperatorFunction<T> {
  return (source) =>
    defer(() => {
      let answered = false;
      return source.pipe(
        tap(() => (answered = true)),
        finalize(() => answered || giveBack(reservation, spent())),
      );
    });
}

/**
 * The `admit` of a request that reserved from `budget` (see `ChatRequest.admit`): it looks at
 * the budget again when it gets its slot of the engine's request limiter
 * (`maxConcurrentRequests`), and the run asks it again just before it sends the request: its
 * reservation was made before it waited, on an estimate, and the requests answered meanwhile
 * may have spent the pool. Then it is not sent: it fails with a {@link BudgetSpentError} that
 * ends its run as a refused request does, and its reservation is given back
 * (`givenBackUnanswered`). Only a spent pool stops it, not the reservations of the requests
 * still queued: they are not in flight. What `step` (the run's state) has used but not yet
 * charged (its compaction summaries, its requests that failed mid-reply: charged when it
 * ends) counts as spent: else a step could send summary after summary, and its resend,
 * against a pool they had already spent.
 */
export function budgetAdmit(budget: TokenBudget, step?: StepUse): () => Error | undefined {
  return () => {
    const unsettled = step ? step.summaryTokens + step.unansweredTokens : 0;
    if (budget.remaining() - unsettled > 0) return undefined;
    return new BudgetSpentError(unsettled > 0 ? spentByStep(budget, unsettled) : budgetRefused(budget));
  };
}

/** What a step has used but not yet charged to its budget (`RunState`'s counts of them). */
export interface StepUse {
  /** Tokens of the step's compaction summaries. */
  readonly summaryTokens: number;
  /** Tokens of the step's requests that failed once their reply had begun. */
  readonly unansweredTokens: number;
}

/** Why a request was not sent when the step's own uncharged use (`unsettled`) spent what was left. */
function spentByStep(budget: TokenBudget, unsettled: number): string {
  const { limit, used } = budget.binding();
  return (
    `the token budget is spent: ${used + unsettled} of ${limit} tokens used by this run and its tasks ` +
    `(${unsettled} of them by this step's compaction summaries and failed requests, charged when the step ends), so no further model request was made`
  );
}
