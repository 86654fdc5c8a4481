/**
 * Preloaded into a benchmark's server process (`node --import ./loop-delay-probe.mjs`): how
 * far its event loop fell behind (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution),
 * written every 100 ms as JSON `{ p50, p90, p99, max, mean, samples }` (ms) to the file named
 * by `RXHARNESS_LOOP_DELAY_PROBE`. Creating `<that file>.reset` starts the count again (the
 * probe deletes it), so a benchmark measures its load and not its warm-up. A delivery
 * latency near the server's loop delay was the server being behind; the rest is the way
 * there and back (sockets, the clients' own loop). Not part of the run.
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
    const { count } = histogram;
    const stats = count === 0 ? { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 } : { p50: ms(histogram.percentile(50)), p90: ms(histogram.percentile(90)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) };
    writeAtomic(file, JSON.stringify({ ...stats, samples: count }));
  }, 100).unref();
}
