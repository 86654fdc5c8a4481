import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';

/** Checks per idle limit: a silence is noticed at most a quarter of the limit late. */
const CHECKS_PER_LIMIT = 8;

/** Why a watchdog gave up: nothing at all arrived, or only what is no news (keep-alives). */
export type IdleCause = 'silence' | 'no-news';

/** A second, longer watch of {@link watchIdle}: `news()` must change once every `limitMs`, whatever else arrives. */
export interface NewsWatch {
  /** A counter of what is news (pieces of a reply), which keep-alives do not bump. */
  readonly news: () => number;
  /** The longest time without news; at least the idle limit. */
  readonly limitMs: number;
}

/**
 * Calls `onIdle('silence')` once `activity()` has not changed for `limitMs`, or
 * `onIdle('no-news')` once `news.news()` has not changed for `news.limitMs` (each never
 * sooner, and at most a quarter of `limitMs` later; a busy event loop only makes it later).
 * The reader only bumps counters for what it receives, so watching costs nothing per chunk;
 * the watchdog is one periodic timer on `scheduler` (one `setInterval` on the default
 * scheduler) that compares them. Unsubscribe to stop it.
 *
 * @example
 * ```ts
 * const progress = { received: 0 };
 * const watchdog = watchIdle(() => progress.received, 30_000, asyncScheduler, () => abort.abort());
 * // ... progress.received++ for every event; watchdog.unsubscribe() at the end.
 * ```
 */
export function watchIdle(activity: () => number, limitMs: number, scheduler: SchedulerLike, onIdle: (cause: IdleCause) => void, news?: NewsWatch): Subscription {
  const period = Math.max(1, Math.ceil(limitMs / CHECKS_PER_LIMIT));
  let seen = activity();
  let quietMs = 0;
  let known = news?.news() ?? 0;
  let staleMs = 0;
  return scheduler.schedule(function (this: SchedulerAction<undefined>) {
    const now = activity();
    if (now !== seen) {
      seen = now;
      quietMs = 0;
    } else if ((quietMs += period) >= limitMs) {
      onIdle('silence');
      return;
    }
    if (news) {
      const latest = news.news();
      if (latest !== known) {
        known = latest;
        staleMs = 0;
      } else if ((staleMs += period) >= news.limitMs) {
        onIdle('no-news');
        return;
      }
    }
    this.schedule(undefined, period);
  }, period);
}
