import type { CliIO } from './cli-io.js';

/**
 * How long {@link holdInterrupts} holds the signals: the bash tool's grace between the
 * SIGTERM and the SIGKILL of a stopped command (2 s by default), and a margin.
 */
export const HOLD_INTERRUPTS_MS = 3_000;

/**
 * Keeps a second Ctrl+C (or SIGTERM, or SIGHUP) from killing the process while it drains,
 * after a command has returned. A stopped run's commands get SIGTERM at once and SIGKILL only
 * after a grace, on a timer of this process: killed meanwhile by the signal's default action,
 * the process would never send it, and a command that ignores SIGTERM would run on for ever in
 * its own process group. The first such signal says so on stderr; a SIGHUP does not, as its
 * terminal is gone: nobody would read it, and the failed write's error, heard by no listener
 * now, would crash the process before the SIGKILL. Neither the listener nor its timer keeps
 * the process alive; after `ms` the signals act as usual again (a process still there then is
 * stuck, and Ctrl+C must end it).
 *
 * @example
 * ```ts
 * process.exitCode = await main(argv, io);
 * holdInterrupts(io);
 * ```
 */
export function holdInterrupts(io: CliIO, ms: number = HOLD_INTERRUPTS_MS): void {
  let told = false;
  const stop = io.onInterrupt((signal) => {
    if (told || signal === 'SIGHUP') return;
    told = true;
    io.stderr.write(`rxharness: still stopping the commands its runs started (at most ${Math.ceil(ms / 1000)} s)\n`);
  });
  setTimeout(stop, ms).unref();
}
