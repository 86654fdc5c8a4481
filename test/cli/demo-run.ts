/**
 * `main` running the offline demo in-process, stopped by a signal the test sends: the
 * preamble of the tests of what each signal makes `main` resolve and say.
 *
 * @module
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { interruptExitCode, type InterruptSignal } from '../../src/cli/cli-io.js';
import { main } from '../../src/cli/main.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';
import type { TestCliIO } from './test-cli-io.js';

/** A demo run under way. */
export interface DemoRun {
  readonly cli: TestCliIO;
  /** What `main` resolves. */
  readonly exit: Promise<number>;
}

/** What {@link demoRuns} gives each test. */
export interface DemoRuns {
  /** The test's workspace and home (made anew for each test). */
  readonly sandbox: CliSandbox;
  /** `rxharness run --demo`, slowed down, once its first task started. */
  started(): Promise<DemoRun>;
}

/**
 * Registers the `beforeEach` that makes a sandbox and the `afterEach` that removes it (and
 * brings back real timers, for the tests that took fake ones).
 */
export function demoRuns(): DemoRuns {
  let sandbox: CliSandbox | undefined;
  beforeEach(async () => {
    sandbox = await cliSandbox();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await sandbox?.cleanup();
    sandbox = undefined;
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    async started() {
      // Slowed down, so the run is still going when the signal comes.
      const cli = sandbox!.io({ RXHARNESS_DEMO_DELAY_MS: '20' });
      const exit = main(['run', '--demo', 'Survey this project'], cli);
      await cli.waitForStdout('task started');
      return { cli, exit };
    },
  };
}

/**
 * Sends `signal` to a started run and checks it was cancelled: `main` resolves 128 + the
 * signal's number, says "Cancelled" (naming any signal but Ctrl+C's), shows no final answer and
 * leaves no listener behind.
 */
export async function expectCancelledBy(run: DemoRun, signal: InterruptSignal): Promise<void> {
  run.cli.interrupt(signal);
  expect(await run.exit).toBe(interruptExitCode(signal));
  expect(run.cli.stderrText()).toBe(signal === 'SIGINT' ? '\nCancelled.\n' : `\nCancelled (${signal}).\n`);
  expect(run.cli.stdoutText()).not.toContain('final answer');
  expect(run.cli.interruptListeners()).toBe(0);
}
