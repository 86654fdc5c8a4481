/**
 * A {@link CliIO} for running `main()` in-process: captured stdout/stderr, a fake
 * environment, and a Ctrl+C the test presses itself.
 *
 * @module
 */
import { PassThrough } from 'node:stream';
import type { CliIO, InterruptSignal } from '../../src/cli/cli-io.js';

/** The IO plus what a test reads and triggers. */
export interface TestCliIO extends CliIO {
  /** Everything written to stdout so far. */
  stdoutText(): string;
  /** Everything written to stderr so far. */
  stderrText(): string;
  /** Resolves once stdout contains `text`. */
  waitForStdout(text: string): Promise<void>;
  /** Resolves once stderr contains `text`. */
  waitForStderr(text: string): Promise<void>;
  /** Types a line on stdin (a terminal when `ttyStdin` was asked for). */
  type(line: string): void;
  /** Presses Ctrl+C (or sends `signal`): calls every subscribed interrupt listener. */
  interrupt(signal?: InterruptSignal): void;
  /** Interrupt listeners still subscribed (the CLI must remove its own). */
  interruptListeners(): number;
}

/**
 * Builds an IO whose `env` is exactly `env` (nothing leaks in from the real process). Its
 * stdout is not a terminal; its stdin is one only with `ttyStdin`.
 */
export function testCliIO(options: { env?: Record<string, string>; cwd?: string; ttyStdin?: boolean } = {}): TestCliIO {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = Object.assign(new PassThrough(), { isTTY: options.ttyStdin === true });
  let out = '';
  let err = '';
  const waiting: Array<{ done: () => boolean; resolve: () => void }> = [];
  const wake = (): void => {
    for (const w of waiting.filter((x) => x.done())) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  const until = (done: () => boolean): Promise<void> =>
    done() ? Promise.resolve() : new Promise((resolve) => waiting.push({ done, resolve }));
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    wake();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    wake();
  });
  const listeners = new Set<(signal: InterruptSignal) => void>();
  return {
    stdout,
    stderr,
    stdin,
    env: { ...options.env },
    cwd: options.cwd ?? process.cwd(),
    onInterrupt(listener) {
      const entry = (signal: InterruptSignal): void => listener(signal);
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    stdoutText: () => out,
    stderrText: () => err,
    waitForStdout: (text) => until(() => out.includes(text)),
    waitForStderr: (text) => until(() => err.includes(text)),
    type: (line) => stdin.write(`${line}\n`),
    interrupt: (signal = 'SIGINT') => [...listeners].forEach((l) => l(signal)),
    interruptListeners: () => listeners.size,
  };
}
