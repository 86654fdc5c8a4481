import type { CliIO } from './cli-io.js';
import { watchOutput } from './output-watch.js';

/**
 * Writes a command's whole output (a help text, the version) to stdout and resolves `code`,
 * or the code of stdout's failure: 141 when its reader went away first (`rxharness --help |
 * true`), quietly, as `run` and `agents` exit; 1 after another write error, said on stderr.
 * Unwatched, the write's `EPIPE` was an uncaught `'error'` event: a stack trace and exit 1.
 *
 * @example
 * ```ts
 * if (values.help) return printed(io, RUN_HELP);
 * ```
 */
export async function printed(io: CliIO, text: string, code = 0): Promise<number> {
  const output = watchOutput(io);
  try {
    io.stdout.write(text);
    await output.flushed();
  } finally {
    output.stop();
  }
  return output.failure() ?? code;
}

/**
 * Makes a write error of stdout or stderr that no command is watching harmless for the rest
 * of the process: Node throws an `'error'` event nobody hears, so a banner written to a closed
 * pipe (`rxharness serve | true`), a usage error said on a closed stderr, or the note a second
 * Ctrl+C prints, crashed the process with a stack trace and exit 1, skipping its cleanup (a
 * server left unclosed, an exit code lost). The commands that must react to a failed output
 * (`run` stops its run, `agents` and {@link printed} exit 141) watch it themselves.
 *
 * @example
 * ```ts
 * const io = processIO();
 * ignoreUnwatchedWriteErrors(io); // once, in the bin: the listeners stay for the process's life
 * ```
 */
export function ignoreUnwatchedWriteErrors(io: Pick<CliIO, 'stdout' | 'stderr'>): void {
  io.stdout.on('error', ignore);
  io.stderr.on('error', ignore);
}

function ignore(): void {}
