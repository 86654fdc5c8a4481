import { EventEmitter } from 'node:events';
import { NEVER } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { ENDING_RUN_WAIT_MS, startPastEndingRun } from '../../src/http/start-past-ending-run.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { RunRegistry } from '../../src/runs/run-registry.js';

/**
 * The wait of a start for a run that has ended (cancelled) but still holds its session, over
 * a real registry: the holder is a registered run, running or cancelled; the start is refused
 * by it (`SessionBusyError`) as many times as the test says. Timers are faked: the pauses and
 * the bound are advanced, never waited for.
 */
let runs: RunRegistry;
beforeEach(() => {
  vi.useFakeTimers();
  runs = new RunRegistry({ log: new MemoryEventLog(), retentionMs: 60_000, maxRetained: 10 });
});
afterEach(() => {
  runs.cancel('run_holder');
  vi.useRealTimers();
});

/** A run of session `s` that never ends by itself, cancelled unless `running`. */
function holder(state: 'running' | 'cancelled'): string {
  const run = runs.start('run_holder', 's', 'main', NEVER);
  if (state === 'cancelled') runs.cancel(run.runId);
  return run.runId;
}

/** A start refused by `holderId` for its first `refusals` tries, then started; counts its tries. */
function refusedTimes(holderId: string, refusals: number): { attempt: () => Promise<string>; tries: () => number } {
  let tries = 0;
  const attempt = async (): Promise<string> => {
    tries += 1;
    if (tries <= refusals) throw new SessionBusyError('s', holderId);
    return 'started';
  };
  return { attempt, tries: () => tries };
}

/** A client's connection, as the wait sees a `ServerResponse`. */
function connection(): EventEmitter & { destroyed: boolean } {
  return Object.assign(new EventEmitter(), { destroyed: false });
}

describe('startPastEndingRun', () => {
  it('tries again while the session is held by a cancelled run, and starts once it is free', async () => {
    const { attempt, tries } = refusedTimes(holder('cancelled'), 3);
    const started = startPastEndingRun(runs, attempt);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(started).resolves.toBe('started');
    expect(tries()).toBe(4);
  });

  it('refuses at once, in one try, a session held by a run still running', async () => {
    const { attempt, tries } = refusedTimes(holder('running'), Infinity);
    await expect(startPastEndingRun(runs, attempt)).rejects.toBeInstanceOf(SessionBusyError);
    expect(tries()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses at once a session held by a run it does not know (another instance), and any other refusal', async () => {
    const unknown = refusedTimes('run_elsewhere', Infinity);
    await expect(startPastEndingRun(runs, unknown.attempt)).rejects.toBeInstanceOf(SessionBusyError);
    expect(unknown.tries()).toBe(1);
    let tries = 0;
    const bad = async (): Promise<string> => {
      tries += 1;
      throw new TypeError('empty prompt');
    };
    await expect(startPastEndingRun(runs, bad)).rejects.toThrow('empty prompt');
    expect(tries).toBe(1);
  });

  it('gives up after ENDING_RUN_WAIT_MS with the last refusal, leaving no timer', async () => {
    const { attempt, tries } = refusedTimes(holder('cancelled'), Infinity);
    const started = startPastEndingRun(runs, attempt);
    const outcome = started.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(ENDING_RUN_WAIT_MS - 200);
    expect(tries()).toBeGreaterThan(1); // still trying
    await vi.advanceTimersByTimeAsync(400);
    expect(await outcome).toBeInstanceOf(SessionBusyError);
    expect(vi.getTimerCount()).toBe(0);
    const last = tries();
    await vi.advanceTimersByTimeAsync(ENDING_RUN_WAIT_MS);
    expect(tries()).toBe(last); // settled: nothing tries again
  });

  it('a client whose connection closes during a pause: undefined at once, no timer left, nothing tried again', async () => {
    const { attempt, tries } = refusedTimes(holder('cancelled'), Infinity);
    const client = connection();
    const started = startPastEndingRun(runs, attempt, client);
    await vi.advanceTimersByTimeAsync(20);
    const triedBefore = tries();
    expect(triedBefore).toBeGreaterThan(1);
    expect(vi.getTimerCount()).toBe(1); // the pause
    client.destroyed = true;
    client.emit('close');
    await expect(started).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0); // the pause's timer was cleared, not left to fire
    expect(client.listenerCount('close')).toBe(0);
    await vi.advanceTimersByTimeAsync(ENDING_RUN_WAIT_MS);
    expect(tries()).toBe(triedBefore);
  });

  it('a client asked between tries (`() => res.destroyed`): once gone, nothing is tried again', async () => {
    const { attempt, tries } = refusedTimes(holder('cancelled'), Infinity);
    let gone = false;
    const started = startPastEndingRun(runs, attempt, () => gone);
    await vi.advanceTimersByTimeAsync(20);
    const triedBefore = tries();
    gone = true;
    await vi.advanceTimersByTimeAsync(100);
    await expect(started).resolves.toBeUndefined();
    expect(tries()).toBe(triedBefore);
    expect(vi.getTimerCount()).toBe(0);
  });
});
