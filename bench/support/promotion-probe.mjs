/**
 * Preloaded into a benchmark's server process (`node --import ./promotion-probe.mjs`, through
 * `RXHARNESS_LOAD_SERVE_FLAGS`): from `RXHARNESS_PROMOTION_START_MS` (default 3,000) after
 * start, for `RXHARNESS_PROMOTION_MS` (default 14,000), V8's sampling heap profiler counts the
 * allocations that outlive the young generation: live ones and those that die later in the
 * old space, not those a scavenge frees. That is what grows the old space between
 * mark-compacts (the RSS per live run, docs/performance.md §11, "Stop 36"). Writes the
 * profile to the file `RXHARNESS_PROMOTION_PROFILE` names; `promotion-summary.mjs` reads it.
 * Not part of the run.
 */
import { Session } from 'node:inspector/promises';
import { writeAtomic } from './write-atomic.mjs';

const file = process.env['RXHARNESS_PROMOTION_PROFILE'];
if (file) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  setTimeout(() => {
    const sampling = { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false };
    void session.post('HeapProfiler.startSampling', sampling).then(() => {
      setTimeout(async () => {
        const { profile } = await session.post('HeapProfiler.stopSampling');
        writeAtomic(file, JSON.stringify(profile));
      }, Number(process.env['RXHARNESS_PROMOTION_MS'] ?? 14_000)).unref();
    });
  }, Number(process.env['RXHARNESS_PROMOTION_START_MS'] ?? 3_000)).unref();
}
