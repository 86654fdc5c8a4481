/**
 * The idle watchdog on virtual time: a silence ends a reply after its limit; keep-alives (the
 * activity counter moves, the news counter does not) end it after the longer news limit, not
 * never; news holds both off.
 */
import { VirtualTimeScheduler, type SchedulerAction } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { watchIdle, type IdleCause } from '../../src/model/idle-watchdog.js';

const LIMIT = 100;
const PERIOD = Math.ceil(LIMIT / 8);

/** Runs a watchdog for `frames` of virtual time while `every` ms a tick bumps the activity (and the news when `news` says). */
function watch(frames: number, every: number | undefined, news: (tick: number) => boolean): Array<[IdleCause, number]> {
  const scheduler = new VirtualTimeScheduler();
  const counts = { activity: 0, news: 0 };
  if (every !== undefined) {
    scheduler.schedule<number>(function (this: SchedulerAction<number>, tick = 1) {
      counts.activity++;
      if (news(tick)) counts.news++;
      this.schedule(tick + 1, every);
    }, every);
  }
  const seen: Array<[IdleCause, number]> = [];
  const watchdog = watchIdle(() => counts.activity, LIMIT, scheduler, (cause) => void seen.push([cause, scheduler.frame]), { news: () => counts.news, limitMs: 4 * LIMIT });
  scheduler.maxFrames = frames;
  scheduler.flush();
  watchdog.unsubscribe();
  return seen;
}

describe('watchIdle', () => {
  it('silence: gives up once, at the limit (checked every eighth of it)', () => {
    const seen = watch(10_000, undefined, () => false);
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toBe('silence');
    expect(seen[0]![1]).toBeGreaterThanOrEqual(LIMIT);
    expect(seen[0]![1]).toBeLessThan(LIMIT + PERIOD);
  });

  it('keep-alives only, well inside the limit: gives up once, for want of news, at the news limit', () => {
    const seen = watch(10_000, 10, () => false);
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toBe('no-news');
    expect(seen[0]![1]).toBeGreaterThanOrEqual(4 * LIMIT);
    expect(seen[0]![1]).toBeLessThan(4 * LIMIT + PERIOD);
  });

  it('news now and then among keep-alives (every 300 ms, each silence 10 ms): never gives up', () => {
    expect(watch(10_000, 10, (tick) => tick % 30 === 0)).toEqual([]);
  });
});
