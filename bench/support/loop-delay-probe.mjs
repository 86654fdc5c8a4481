/**
 * Preloaded into a benchmark's server process (`node --import ./loop-delay-probe.mjs`): how
 * far its event loop fell behind (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution). It
 * looks every 100 ms for two request files beside the file named by
 * `RXHARNESS_LOOP_DELAY_PROBE`: `<file>.reset` starts the count again (so a benchmark
 * measures its load and not its warm-up), `<file>.ask` has it write its figures as JSON
 * `{ p50, p90, p99, max, mean, samples }` (ms) to the file; it deletes each request when
 * done. It writes only when asked: a file written ten times a second cost each side about
 * 1% of its CPU under load, the same on both, which made the sides look closer than they
 * are. A delivery latency near the server's loop delay was the server being behind; the
 * rest is the way there and back (sockets, the clients' own loop). Not part of the run.
 */
import { existsSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeAtomic } from './write-atomic.mjs';

const file = process.env['RXHARNESS_LOOP_DELAY_PROBE'];
if (file) {
  const RESOLUTION_MS = 10;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  // the histogram holds the intervals between the probe's ticks: the delay is what exceeds the resolution
  const ms = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  setInterval(() => {
    if (existsSync(`${file}.reset`)) {
      rmSync(`${file}.reset`, { force: true });
      histogram.reset();
    }
    if (!existsSync(`${file}.ask`)) return;
    const { count } = histogram;
    const stats = count === 0 ? { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 } : { p50: ms(histogram.percentile(50)), p90: ms(histogram.percentile(90)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) };
    writeAtomic(file, JSON.stringify({ ...stats, samples: count }));
    rmSync(`${file}.ask`, { force: true });
  }, 100).unref();
}
