import { describe, expect, it, vi } from 'vitest';
import { processIO } from '../../src/cli/cli-io.js';
import { holdInterrupts, HOLD_INTERRUPTS_MS } from '../../src/cli/hold-interrupts.js';
import { demoRuns, expectCancelledBy } from './demo-run.js';

// SIGTERM (a supervisor, `timeout`, a CI job cancelled) stops a command as Ctrl+C does; left
// to its default action it kills the process at once.

const runs = demoRuns();

describe('rxharness: the signals that stop a command', () => {
  it('SIGTERM cancels the run, says so and resolves 143', async () => {
    const run = await runs.started();
    await expectCancelledBy(run, 'SIGTERM');
    expect(await run.exit).toBe(143);
  });

  it('the real process hears SIGINT, SIGTERM and SIGHUP (nohup gives no protection to undo: Node resets it), notes a SIGHUP, and the unsubscribe removes them', () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = signals.map((s) => process.listeners(s));
    const heard: string[] = [];
    const io = processIO();
    const stop = io.onInterrupt((signal) => heard.push(signal));
    try {
      // Called directly, not by process.emit: the test runner's own listeners stay out of it.
      signals.forEach((signal, i) => {
        const added = process.listeners(signal).filter((l) => !before[i]!.includes(l));
        expect(added).toHaveLength(1);
        expect(io.heardHangup()).toBe(false);
        (added[0] as (s: NodeJS.Signals) => void)(signal);
      });
      expect(io.heardHangup()).toBe(true);
    } finally {
      stop();
    }
    expect(heard).toEqual([...signals]);
    expect(signals.map((s) => process.listeners(s))).toEqual(before);
  });

  it('after a command returned, holds a further signal for a while (saying so once), then lets it act again', () => {
    vi.useFakeTimers();
    const cli = runs.sandbox.io();
    holdInterrupts(cli);
    expect(cli.interruptListeners()).toBe(1);
    cli.interrupt();
    cli.interrupt('SIGTERM');
    expect(cli.stderrText()).toBe('rxharness: still stopping the commands its runs started (at most 3 s)\n');
    vi.advanceTimersByTime(HOLD_INTERRUPTS_MS);
    expect(cli.interruptListeners()).toBe(0);
  });
});
