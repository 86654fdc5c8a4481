/**
 * Preloaded into a benchmark's server process (`node --import ./memory-probe.mjs`): every
 * 100 ms it notes `process.memoryUsage()` and V8's heap spaces, and writes the sample of
 * highest RSS so far and the latest one to the JSON file named by `RXHARNESS_MEMORY_PROBE`,
 * so a benchmark can tell the V8 heap (used and reserved, young and old) from memory outside
 * it (buffers, native allocations). Not part of the run.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { writeAtomic } from './write-atomic.mjs';

const file = process.env['RXHARNESS_MEMORY_PROBE'];
/** Each space's reserved, used and resident KiB. */
const spaces = () =>
  Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, { sizeKiB: s.space_size >> 10, usedKiB: s.space_used_size >> 10, residentKiB: s.physical_space_size >> 10 }]),
  );
if (file) {
  let peak = { ...process.memoryUsage(), spaces: spaces() };
  setInterval(() => {
    const now = { ...process.memoryUsage(), spaces: spaces() };
    if (now.rss > peak.rss) peak = now;
    writeAtomic(file, JSON.stringify({ peak, now }));
  }, 100).unref();
}
