import type { ApprovalHandler, ApprovalRequest } from '../permission/approval.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';

/** What an approval handler came back with, or that the deadline passed first. */
export type DeadlineOutcome = { readonly answer: unknown } | { readonly timedOut: true };

/**
 * Asks `approve`, giving up after `timeoutMs` (when set): the handler's signal then aborts,
 * so it withdraws its question (a page's card, a terminal prompt), and the outcome says the
 * deadline passed, whatever the handler answers afterwards. The run's own `signal` aborting
 * reaches the handler too, and ends the wait at once with a rejection (the timer cleared).
 * A handler that throws rejects the promise. A `timeoutMs` longer than a timer holds
 * (`MAX_TIMER_MS`) sets no deadline: Node would fire it after 1 ms. The engine's option
 * refuses one; a worker's job may still carry one from elsewhere.
 *
 * @example
 * ```ts
 * const outcome = await askWithDeadline(approve, request, signal, 600_000);
 * if ('timedOut' in outcome) reject('nobody answered in time');
 * ```
 */
export function askWithDeadline(approve: ApprovalHandler, request: ApprovalRequest, signal: AbortSignal, timeoutMs: number | undefined): Promise<DeadlineOutcome> {
  if (timeoutMs === undefined || !(timeoutMs <= MAX_TIMER_MS)) return Promise.resolve(approve(request, { signal })).then((answer) => ({ answer }));
  const withdraw = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled!: (outcome: DeadlineOutcome) => void;
  // A cancel ends the wait itself: a handler that ignores its signal must not keep the
  // deadline's timer (up to days) alive after the run is gone.
  const stopped = new Promise<DeadlineOutcome>((resolve) => (cancelled = resolve));
  const onAbort = (): void => {
    clearTimeout(timer);
    cancelled({ answer: CANCELLED });
    withdraw.abort(signal.reason);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const expired = new Promise<DeadlineOutcome>((resolve) => {
    if (signal.aborted) return;
    timer = setTimeout(() => {
      resolve({ timedOut: true }); // settled first: the handler's reaction to the abort below loses the race
      // A `TimeoutError`, as `AbortSignal.timeout` gives: a handler can tell it from a cancel.
      withdraw.abort(new DOMException(`no answer within ${describeDuration(timeoutMs)}`, 'TimeoutError'));
    }, timeoutMs);
  });
  let answered: Promise<DeadlineOutcome>;
  try {
    answered = Promise.resolve(approve(request, { signal: withdraw.signal })).then((answer) => ({ answer }));
  } catch (error) {
    answered = Promise.reject(error);
  }
  return Promise.race([answered, expired, stopped]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  });
}

const CANCELLED = { decision: 'reject', comment: 'the approval was withdrawn: the call was cancelled (fail-closed)' } as const;

/** `90 s`, `10 min`, `1.5 h`: a duration as a human reads it. */
export function describeDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${round(ms / 60_000)} min`;
  return `${round(ms / 3_600_000)} h`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
