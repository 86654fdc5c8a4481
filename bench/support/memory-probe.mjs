/**
 * Preloaded into a benchmark's server process (`node --import ./memory-probe.mjs`): every
 * 100 ms it notes `process.memoryUsage()`, and writes the sample of highest RSS so far and the
 * latest one to the JSON file named by `RXHARNESS_MEMORY_PROBE`, so a benchmark can tell the
 * V8 heap (used and reserved) from memory outside it (buffers, native allocations). Not part
 * of the run.
 */
import { writeFileSync } from 'node:fs';

const file = process.env['RXHARNESS_MEMORY_PROBE'];
if (file) {
  let peak = process.memoryUsage();
  setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > peak.rss) peak = now;
    writeFileSync(file, JSON.stringify({ peak, now }));
  }, 100).unref();
}
