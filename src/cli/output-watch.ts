import { errnoOf } from '../errors/errno-of.js';
import { errorMessage } from '../errors/error-message.js';
import type { CliIO } from './cli-io.js';

/**
 * The exit code when stdout's reader went away before the command was done (`EPIPE`, e.g.
 * under `| head -1`): 128 + SIGPIPE (13), what a shell reports for a command a closed pipe
 * cut off.
 */
export const OUTPUT_CLOSED_EXIT_CODE = 141;

/** Write errors of a command's output being watched; see {@link watchOutput}. */
export interface OutputWatch {
  /** The exit code stdout's failure calls for (141 for EPIPE, else 1), once it failed. */
  failure(): number | undefined;
  /**
   * Resolves once what was written to stdout is flushed or has failed, and a failure has
   * been reported to this watch: then {@link OutputWatch.failure} is final.
   */
  flushed(): Promise<void>;
  /** Removes the listeners. */
  stop(): void;
}

/**
 * Listens for write errors of stdout and stderr while a command writes (`run`'s events,
 * `agents`' list). Without a listener, Node throws a stream's `'error'` event as an uncaught
 * exception: `rxharness agents | head -1` would die with a stack trace instead of exiting
 * quietly with 141. A closed stdout (`EPIPE`) is reported by the exit code alone; another
 * write error is said on stderr. A failing stderr is ignored: there is nowhere left to report it.
 * `onFailure` hears stdout's failure once (`run` stops the run then).
 *
 * @example
 * ```ts
 * const output = watchOutput(io);
 * io.stdout.write(text);
 * await output.flushed();
 * output.stop();
 * return output.failure() ?? 0;
 * ```
 */
export function watchOutput(io: CliIO, onFailure: (code: number) => void = () => undefined): OutputWatch {
  let failure: number | undefined;
  // `unknown`: a stream of the caller's may emit anything as its error, `null` included.
  const onStdoutError = (error: unknown): void => {
    if (failure !== undefined) return;
    failure = errnoOf(error) === 'EPIPE' ? OUTPUT_CLOSED_EXIT_CODE : 1;
    if (failure !== OUTPUT_CLOSED_EXIT_CODE) io.stderr.write(`rxharness: cannot write the output: ${errorMessage(error)}\n`);
    onFailure(failure);
  };
  const onStderrError = (): void => undefined;
  io.stdout.on('error', onStdoutError);
  io.stderr.on('error', onStderrError);
  return {
    failure: () => failure,
    flushed: async () => {
      // An empty write's callback runs once the writes before it are done or have failed...
      await new Promise<void>((resolve) => io.stdout.write('', () => resolve()));
      // ...but a failed write's 'error' event is emitted on a later tick: let it reach the listener.
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    stop: () => {
      io.stdout.off('error', onStdoutError);
      io.stderr.off('error', onStderrError);
    },
  };
}
