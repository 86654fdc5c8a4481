import { type MonoTypeOperatorFunction, tap } from 'rxjs';
import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * How much of `run --json`'s output may wait for stdout's reader: 32 MiB, far more than any
 * burst of a run (a reader that keeps reading never comes near it).
 */
export const MAX_UNREAD_OUTPUT = 32 * 1024 * 1024;

/** `run --json`'s reader fell more than the bound behind; see {@link writeLines}. */
export class OutputBacklogError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'OUTPUT_BACKLOG';
  /** Always `OutputBacklogError`. */
  override readonly name = 'OutputBacklogError';

  /** @param bound - The most output that may wait unread, in bytes. */
  constructor(readonly bound: number) {
    super(
      `the reader of stdout fell more than ${bound / 2 ** 20} MiB behind the --json output, so the run was stopped. ` +
        'Read the output as it comes, or write it to a file (--json > run.ndjson).',
    );
  }
}

/**
 * Writes each line to `stdout`, and errors (so unsubscribes the run) with an
 * {@link OutputBacklogError} once more than `bound` bytes wait unread in it.
 *
 * Why: when stdout is a socket (a parent's `spawn(..., { stdio: 'pipe' })`: an IDE, a
 * supervisor; any pipe on macOS) or a pipe on Windows, writes are asynchronous, and every
 * line a reader has not taken waits in stdout's buffer, outside the JS heap: a reader that
 * paused, or a model faster than the reader, would hold the whole run there (126 MiB of
 * deltas for a 2 MB answer). RxJS cannot pause a run, so a slow reader cannot slow it; a
 * reader within the bound still gets every line, in order. The backlog is the stream's
 * `writableLength` (bytes, or characters of text a socket keeps as text); a stream without
 * one is written to unbounded.
 *
 * @example
 * ```ts
 * events$.pipe(toNdjson(), writeLines(process.stdout)).subscribe();
 * ```
 */
export function writeLines(stdout: NodeJS.WritableStream, bound = MAX_UNREAD_OUTPUT): MonoTypeOperatorFunction<string> {
  return tap((line) => {
    if (stdout.write(line)) return; // under the stream's high-water mark: nothing waits to speak of
    const unread = (stdout as { writableLength?: unknown }).writableLength;
    if (typeof unread === 'number' && unread > bound) throw new OutputBacklogError(bound);
  });
}
