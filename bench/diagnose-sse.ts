/**
 * Not part of `npm run bench`: the experiment behind the SSE findings in
 * docs/performance.md. Runs the delegation scenario through `engine.stream()` (2 warm-up
 * runs, 10 measured) with the `openai` client as is, or with a `fetch` that hands the client
 * one SSE event per body chunk, which keeps `openai` 6.x's event splitter linear (it copies
 * the rest of its buffer once per event, so a read holding many events costs quadratic
 * copying). One variant per process, so their garbage does not mix. Prints the median wall
 * and CPU time per run, the peak of ArrayBuffer memory, the GC count and the peak RSS.
 *
 * ```sh
 * npm run build
 * node --import tsx bench/diagnose-sse.ts as-is
 * node --import tsx bench/diagnose-sse.ts per-event
 * ```
 *
 * @module
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { count, lastValueFrom } from 'rxjs';
import { DELEGATION } from './scenarios/delegation.js';
import { benchClient } from './support/bench-client.js';
import { delegationEngine } from './support/delegation-engine.mjs';
import { startServer } from './support/server-process.js';
import { median } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';

/** Re-chunks a body so that every chunk is exactly one SSE event (ends with a blank line). */
function onePerEvent(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let pending = new Uint8Array(0);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        const all = new Uint8Array(pending.length + chunk.length);
        all.set(pending);
        all.set(chunk, pending.length);
        let start = 0;
        for (let i = all.indexOf(10); i >= 0 && i + 1 < all.length; i = all.indexOf(10, i + 1)) {
          if (all[i + 1] === 10) out.enqueue(all.subarray(start, (start = i + 2)));
        }
        pending = all.slice(start);
      },
      flush: (out) => void (pending.length && out.enqueue(pending)),
    }),
  );
}

const perEventFetch: typeof fetch = async (url, init) => {
  const response = await fetch(url, init);
  return response.body ? new Response(onePerEvent(response.body), { status: response.status, headers: response.headers }) : response;
};

const variant = process.argv[2];
if (variant !== 'as-is' && variant !== 'per-event') throw new Error('usage: node --import tsx bench/diagnose-sse.ts as-is|per-event');
const server = await startServer('delegation');
const dirs = await makeTempDirs();
const client = benchClient(server.baseURL, variant === 'per-event' ? perEventFetch : undefined);
const engine = await delegationEngine({ baseURL: server.baseURL, ...dirs, client });
const wall: number[] = [];
const cpu: number[] = [];
let peakArrayBuffers = 0;
let gcs = 0;
for (let round = 0; round < 12; round++) {
  const measured = round >= 2;
  const observer = new PerformanceObserver((list) => void (gcs += list.getEntries().length));
  if (measured) observer.observe({ entryTypes: ['gc'] });
  const sampler = setInterval(() => (peakArrayBuffers = Math.max(peakArrayBuffers, process.memoryUsage().arrayBuffers)), 2);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await lastValueFrom(engine.stream(DELEGATION.mainPrompt).pipe(count()));
  const used = process.cpuUsage(cpuStart);
  clearInterval(sampler);
  observer.disconnect();
  if (!measured) continue;
  wall.push(performance.now() - start);
  cpu.push((used.user + used.system) / 1000);
}
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
console.log(
  `${variant}: wall ${median(wall).toFixed(1)} ms, cpu ${median(cpu).toFixed(1)} ms per run; ` +
    `peak ArrayBuffers ${mib(peakArrayBuffers)} MiB, ${gcs} GCs, peak RSS ${mib(process.resourceUsage().maxRSS * 1024)} MiB`,
);
await server.close();
await dirs.remove();
