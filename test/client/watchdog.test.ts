/**
 * The client's idle watchdog: restarted for every event, it only notes the time, and its one
 * timer waits on for what is left when it comes due. It fires `ms` after the last restart,
 * not sooner or later, and a wall clock set back does not hold it off.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Watchdog } from '../../src/client/watchdog.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Watchdog', () => {
  it('fires ms after the last restart, however many restarts came before', () => {
    let fired = 0;
    const dog = new Watchdog(1_000, () => fired++);
    for (let i = 0; i < 10_000; i++) {
      vi.advanceTimersByTime(0.25);
      dog.restart();
    }
    expect(vi.getTimerCount()).toBe(1); // one timer, not one per restart
    vi.advanceTimersByTime(999);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is not held off by a wall clock set back an hour', () => {
    let fired = 0;
    new Watchdog(1_000, () => fired++);
    vi.setSystemTime(Date.now() - 3_600_000); // after its last restart
    vi.advanceTimersByTime(2_000);
    expect(fired).toBe(1);
  });

  it('stop leaves no timer, and 0 never fires', () => {
    let fired = 0;
    new Watchdog(1_000, () => fired++).stop();
    new Watchdog(0, () => fired++).restart();
    vi.advanceTimersByTime(10_000);
    expect(fired).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
