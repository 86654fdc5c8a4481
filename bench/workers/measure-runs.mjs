// @ts-check
import { PerformanceObserver } from 'node:perf_hooks';

/**
 * The measuring loop of a peer worker process (plain JavaScript, run on bare `node` so no
 * TypeScript loader adds to the memory measured): one warm-up run, then timed runs; prints
 * one JSON line with the wall times and the process's memory.
 *
 * @module
 */

const MIB = 1024 * 1024;

/**
 * The worker's configuration, one JSON argument from the orchestrator (`peer.ts`).
 * @returns {{ baseURL: string, runs: number, workspace: string, home: string, variant?: string }}
 */
export function workerConfig() {
  const [json] = process.argv.slice(2);
  if (!json) throw new Error('usage: node <worker>.mjs \'{"baseURL": ..., "runs": N, "workspace": ..., "home": ...}\'');
  return JSON.parse(json);
}

/**
 * Runs `run` once to warm up, then `runs` times timed, and prints the report on stdout.
 * `run` resolves with the number of events its consumer received.
 * @param {number} runs
 * @param {() => Promise<number>} run
 */
export async function measureRuns(runs, run) {
  const setupRss = process.memoryUsage.rss();
  const peak = { heapUsed: 0, arrayBuffers: 0 };
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
  }, 2);
  let collections = 0;
  const gcs = new PerformanceObserver((list) => void (collections += list.getEntries().length));
  gcs.observe({ entryTypes: ['gc'] });
  let events = await run();
  const wallMs = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    events = await run();
    wallMs.push(performance.now() - start);
  }
  clearInterval(sampler);
  gcs.disconnect();
  const report = {
    wallMs,
    // The kernel's high-water mark of the whole process: nothing sampled, nothing missed.
    peakRssMiB: (process.resourceUsage().maxRSS * 1024) / MIB,
    setupRssMiB: setupRss / MIB,
    // Sampled every 2 ms: the JS heap, and the ArrayBuffers (network data) outside it.
    peakHeapUsedMiB: peak.heapUsed / MIB,
    peakArrayBuffersMiB: peak.arrayBuffers / MIB,
    garbageCollections: collections,
    events,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
