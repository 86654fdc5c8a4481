import { type Observable, type Subscription, tap } from 'rxjs';
import { toNdjson } from '../adapters/ndjson.js';
import { oneLine } from '../adapters/terminal-tree/text-line.js';
import type { AgentEvent } from '../events/agent-event.js';
import { interruptExitCode, type CliIO } from './cli-io.js';
import { errorMessage } from '../errors/error-message.js';
import { watchOutput } from './output-watch.js';
import { shownError } from './shown-error.js';
import { writeLines } from './json-output.js';

/** A run being shown; see {@link presentRun}. */
export interface PresentedRun {
  /** Settles with the run's exit code: 0, 1, or 130 on Ctrl+C (143 on SIGTERM, 129 on SIGHUP). */
  readonly code: Promise<number>;
  /**
   * The exit code to use instead of the run's when stdout failed (141 for EPIPE, else 1),
   * unless a signal had stopped the run first: then the output was cut short on purpose (after
   * a SIGHUP the terminal is gone, and the tree's last write fails with EIO), so the signal's
   * code stands.
   */
  outputFailure(): number | undefined;
  /** Removes the Ctrl+C and output error listeners. */
  stop(): void;
}

/**
 * Subscribes, writes NDJSON when asked, and settles with the exit code (130 on Ctrl+C; a
 * SIGTERM or SIGHUP stops the run the same way, see `INTERRUPT_SIGNALS`).
 * The caller calls `stop()` once the engine is closed, not at the first press: a library
 * that re-raises SIGINT when it finds no other listener (log-update's cursor restore does, on
 * a terminal) would otherwise kill the process before the cleanup ran.
 *
 * When stdout fails (its reader closed the pipe, or a write error; see `watchOutput`), the
 * run is unsubscribed, so stopped, and the code settles at once. With `json`, a reader more
 * than 32 MiB behind stops the run too, with 1 and a line on stderr (see `writeLines`).
 */
export function presentRun(events$: Observable<AgentEvent>, json: boolean, io: CliIO): PresentedRun {
  let done!: (code: number) => void;
  const code = new Promise<number>((resolve) => (done = resolve));
  let exitCode = 1; // stays 1 if the stream ends without the run's own RunEnd
  const tracked$ = events$.pipe(tap((e) => e.type === 'RunEnd' && (exitCode = e.abnormal ? 1 : 0)));
  // Bounded: a reader that stops reading must not make stdout hold the whole run (see writeLines).
  const out$: Observable<unknown> = json ? tracked$.pipe(toNdjson(), writeLines(io.stdout)) : tracked$;

  let interrupted = false;
  let failedFirst = false; // stdout failed before any signal stopped the run
  const stopInterrupts = io.onInterrupt((signal) => {
    if (interrupted) return;
    interrupted = true;
    const failure = unsubscribe(subscription); // aborts the model requests and every task
    io.stderr.write(signal === 'SIGINT' ? '\nCancelled.\n' : `\nCancelled (${signal}).\n`);
    if (failure !== undefined) io.stderr.write(failure);
    done(interruptExitCode(signal));
  });
  const output = watchOutput(io, (failure) => {
    failedFirst = !interrupted;
    const stopFailure = unsubscribe(subscription);
    if (stopFailure !== undefined) io.stderr.write(stopFailure);
    done(failure);
  });

  const subscription = out$.subscribe({
    error: (e: unknown) => {
      io.stderr.write(`rxharness: ${shownError(e)}\n`);
      done(1);
    },
    complete: () => done(exitCode),
  });
  return {
    code,
    outputFailure: () => (interrupted && !failedFirst ? undefined : output.failure()),
    stop: () => {
      stopInterrupts();
      output.stop();
    },
  };
}

/**
 * Unsubscribes the run. A teardown that throws (RxJS still runs the others, then throws them
 * together) must not escape: from a signal or stream listener it would crash the process with
 * exit 1 and a stack trace instead of the exit code the caller settles.
 *
 * @returns the failure as one stderr line, or undefined when the run stopped cleanly.
 */
function unsubscribe(subscription: Subscription): string | undefined {
  try {
    subscription.unsubscribe();
    return undefined;
  } catch (e) {
    return `rxharness: stopping the run failed: ${oneLine(errorMessage(e)).trim()}\n`;
  }
}
