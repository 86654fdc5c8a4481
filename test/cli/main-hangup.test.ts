import { describe, expect, it, vi } from 'vitest';
import { holdInterrupts, HOLD_INTERRUPTS_MS } from '../../src/cli/hold-interrupts.js';
import { demoRuns, expectCancelledBy } from './demo-run.js';

// The SIGHUP of a closed terminal stops a command as Ctrl+C does (test/cli/process-hangup.test.ts
// runs it as a real process); here, what `main` resolves and says.

const runs = demoRuns();

/** An error as a write to a terminal that was hung up fails. */
function eio(): NodeJS.ErrnoException {
  return Object.assign(new Error('write EIO'), { code: 'EIO', errno: -5, syscall: 'write' });
}

describe('rxharness: the SIGHUP of a closed terminal', () => {
  it('cancels the run, says so and resolves 129', async () => {
    const run = await runs.started();
    await expectCancelledBy(run, 'SIGHUP');
    expect(await run.exit).toBe(129);
  });

  it('still resolves 129 when the output then fails, as the tree of a hung-up terminal does (EIO)', async () => {
    const { cli, exit } = await runs.started();
    cli.interrupt('SIGHUP');
    cli.stdout.emit('error', eio());
    expect(await exit).toBe(129);
  });

  it('an output that failed before the signal keeps its own code', async () => {
    const { cli, exit } = await runs.started();
    cli.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    cli.interrupt('SIGHUP');
    expect(await exit).toBe(141);
  });

  it('after a command returned, a SIGHUP is held too, without a word to the terminal that is gone', () => {
    vi.useFakeTimers();
    const cli = runs.sandbox.io();
    holdInterrupts(cli);
    cli.interrupt('SIGHUP');
    expect(cli.stderrText()).toBe('');
    cli.interrupt('SIGINT');
    expect(cli.stderrText()).toBe('rxharness: still stopping the commands its runs started (at most 3 s)\n');
    vi.advanceTimersByTime(HOLD_INTERRUPTS_MS);
    expect(cli.interruptListeners()).toBe(0);
  });
});
