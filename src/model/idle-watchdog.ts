import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';

/** Checks per idle limit: a silence is noticed at most a quarter of the limit late. */
const CHECKS_PER_LIMIT = 8;

/**
 * Calls `onIdle` once `activity()` has not changed for `limitMs` (never sooner, and at most
 * a quarter of `limitMs` later; a busy event loop only makes it later). The reader only bumps a counter for each thing it receives,
 * so watching costs nothing per chunk; the watchdog is one periodic timer on `scheduler`
 * (one `setInterval` on the default scheduler) that compares the counter. Unsubscribe to stop it.
 *
 * @example
 * ```ts
 * const progress = { received: 0 };
 * const watchdog = watchIdle(() => progress.received, 30_000, asyncScheduler, () => abort.abort());
 * // ... progress.received++ for every event; watchdog.unsubscribe() at the end.
 * ```
 */
export function watchIdle(activity: () => number, limitMs: number, scheduler: SchedulerLike, onIdle: () => void): Subscription {
  const period = Math.max(1, Math.ceil(limitMs / CHECKS_PER_LIMIT));
  let seen = activity();
  let quietMs = 0;
  return scheduler.schedule(function (this: SchedulerAction<undefined>) {
    const now = activity();
    if (now !== seen) {
      seen = now;
      quietMs = 0;
    } else if ((quietMs += period) >= limitMs) {
      onIdle();
      return;
    }
    this.schedule(undefined, period);
  }, period);
}
