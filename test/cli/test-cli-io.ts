/**
 * A {@link CliIO} for running `main()` in-process: captured stdout/stderr, a fake
 * environment, and a Ctrl+C the test presses itself.
 *
 * @module
 */
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../src/cli/cli-io.js';

/** The IO plus what a test reads and triggers. */
export interface TestCliIO extends CliIO {
  /** Everything written to stdout so far. */
  stdoutText(): string;
  /** Everything written to stderr so far. */
  stderrText(): string;
  /** Resolves once stdout contains `text`. */
  waitForStdout(text: string): Promise<void>;
  /** Presses Ctrl+C: calls every subscribed interrupt listener. */
  interrupt(): void;
  /** Interrupt listeners still subscribed (the CLI must remove its own). */
  interruptListeners(): number;
}

/** Builds a non-TTY IO whose `env` is exactly `env` (nothing leaks in from the real process). */
export function testCliIO(options: { env?: Record<string, string>; cwd?: string } = {}): TestCliIO {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const w of waiting.filter((x) => out.includes(x.text))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const listeners = new Set<() => void>();
  return {
    stdout,
    stderr,
    env: { ...options.env },
    cwd: options.cwd ?? process.cwd(),
    onInterrupt(listener) {
      const entry = (): void => listener();
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    stdoutText: () => out,
    stderrText: () => err,
    waitForStdout: (text) =>
      out.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve })),
    interrupt: () => [...listeners].forEach((l) => l()),
    interruptListeners: () => listeners.size,
  };
}
