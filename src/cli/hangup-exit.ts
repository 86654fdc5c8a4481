import type { ProcessIO } from './cli-io.js';

/**
 * Makes the process end by SIGHUP, once it exits, if a SIGHUP stopped its command: its
 * parent then sees what a hang-up does to a process (a shell reports 129, as `main` returned),
 * and Node does not abort on the way out. At exit Node restores the terminal's settings, and
 * Node 20 aborts (SIGABRT, perhaps a core dump) when the terminal is gone, as it is after a
 * hang-up; a process a signal kills skips that step. By then the command has been cleaned
 * up: the run cancelled and its commands killed, SIGKILL included (see `holdInterrupts`, whose
 * timer the exit waits for).
 *
 * Registered after the command returned, so the `exit` listeners that libraries added while
 * it ran (a cursor restored) run first.
 *
 * @example
 * ```ts
 * process.exitCode = await main(argv, io);
 * holdInterrupts(io);
 * endByHangupAtExit(io);
 * ```
 */
export function endByHangupAtExit(io: ProcessIO): void {
  process.once('exit', () => {
    if (!io.heardHangup()) return;
    // With no listener left the signal takes its default action: it ends the process here.
    process.removeAllListeners('SIGHUP');
    process.kill(process.pid, 'SIGHUP');
  });
}
