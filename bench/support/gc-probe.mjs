/**
 * Preloaded into a benchmark's server process (`node --import ./gc-probe.mjs`, through
 * `RXHARNESS_LOAD_SERVE_FLAGS`): notes every garbage collection of the main thread (when, which
 * kind, how long it held the thread) and, every 500 ms, writes them all to the JSON file
 * `RXHARNESS_GC_PROBE` names, as `[startMs, kind, durationMs]` rows (`startMs` on the wall
 * clock, as the load clients' latencies are): how much of the event
 * loop's delay is the collector's (docs/performance.md §11, "Stop 36"). Not part of the run.
 */
import { PerformanceObserver, constants, performance } from 'node:perf_hooks';
import { writeAtomic } from './write-atomic.mjs';

const file = process.env['RXHARNESS_GC_PROBE'];
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
if (file) {
  const rows = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) rows.push([Math.round(performance.timeOrigin + entry.startTime), KINDS[entry.detail.kind] ?? String(entry.detail.kind), Number(entry.duration.toFixed(2))]);
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => writeAtomic(file, JSON.stringify(rows)), 500).unref();
}
