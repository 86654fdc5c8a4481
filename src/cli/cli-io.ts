import { constants } from 'node:os';

/** Where the CLI reads and writes: the real process by default, streams in tests. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; hasColors?: () => boolean };
  readonly stderr: NodeJS.WritableStream;
  /** Where approvals are answered; asked only when it is a terminal (`isTTY`). */
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Subscribes to Ctrl+C and the other {@link INTERRUPT_SIGNALS}; returns the unsubscribe. */
  onInterrupt(listener: (signal: InterruptSignal) => void): () => void;
}

/** A signal that stops a command as Ctrl+C does; see {@link INTERRUPT_SIGNALS}. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/**
 * Ctrl+C, the SIGTERM of a supervisor, of `timeout` or of a cancelled CI job, and the SIGHUP
 * of a terminal that was closed. Each stops the command the same way: left to its default
 * action SIGTERM or SIGHUP would kill the process at once, and the commands its runs started
 * (each in its own process group and session, so no signal sent to the CLI, nor the hang-up
 * of its terminal, reaches them) would run on, orphaned. Listening to SIGHUP costs nothing
 * `nohup` gave: Node resets a SIGHUP its parent ignored to the default action when it starts,
 * so `nohup rxharness` never outlived its terminal.
 */
export const INTERRUPT_SIGNALS: readonly InterruptSignal[] = Object.freeze(['SIGINT', 'SIGTERM', 'SIGHUP']);

/**
 * The exit code of a command stopped by `signal`: 128 + its number, as a shell reports a
 * process the signal killed (130 for Ctrl+C, 143 for SIGTERM, 129 for SIGHUP).
 */
export function interruptExitCode(signal: InterruptSignal): number {
  return 128 + constants.signals[signal];
}

/** The real process's {@link CliIO}, which also tells whether a SIGHUP stopped it. */
export interface ProcessIO extends CliIO {
  /** True once a SIGHUP reached one of the {@link CliIO.onInterrupt} listeners. */
  heardHangup(): boolean;
}

/** The real process's streams, environment and {@link INTERRUPT_SIGNALS}. */
export function processIO(): ProcessIO {
  let hungUp = false;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: process.stdin opens the handle, which only an approval question needs.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(listener) {
      const heard = (signal: InterruptSignal): void => {
        if (signal === 'SIGHUP') hungUp = true;
        listener(signal);
      };
      for (const signal of INTERRUPT_SIGNALS) process.on(signal, heard);
      return () => {
        for (const signal of INTERRUPT_SIGNALS) process.off(signal, heard);
      };
    },
    heardHangup: () => hungUp,
  };
}
