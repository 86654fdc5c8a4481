/**
 * `rxharness serve` under load (issue 28.1): {@link RUNS} runs started over HTTP at once on
 * one `serve` process (the paced fake model in its own process, about 30 deltas a second per
 * stream, each run delegating to two children), each followed by an SSE client (all in a
 * third process). Measured on the serve process: delivery latency (model chunk sent → SSE
 * event read by the client), CPU per delivered event, RSS per live run, and how far its event
 * loop fell behind; and the same for a bare relay forwarding the same chunks as SSE, no harness.
 *
 * `RXHARNESS_LOAD_RUNS` changes the number of runs (e.g. 100 for a quick look);
 * `RXHARNESS_LOAD_LADDER=100,200,400,1000` measures each of those loads in turn (fresh
 * processes for each) and reports, per load, p99 latency and loop delay of both sides, then
 * the highest load at which each meets the p99 target;
 * `RXHARNESS_LOAD_SERVE_FLAGS` adds Node flags to the serve process only (NODE_OPTIONS refuses
 * `--cpu-prof`), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for the profile in docs/performance.md §11;
 * `RXHARNESS_LOAD_RELAY_FLAGS` the same for the bare relay (its profile, to compare by part);
 * `RXHARNESS_LOAD_RELAY_REQUEST_TURNS=1` has the relay start its model requests through serve's
 * request turns (`support/bare-relay.ts`).
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import type { LoadReport } from './support/load-clients.js';
import { startLineProcess } from './support/line-process.js';
import type { ResultRow } from './support/result-row.js';
import { relaySide, serveSide, type SideReport } from './support/serve-load-sides.js';
import { percentile } from './support/stats.js';

const RUNS = Number(process.env['RXHARNESS_LOAD_RUNS'] ?? 1_000);
const LADDER = ladder(process.env['RXHARNESS_LOAD_LADDER']);
const SERVE_FLAGS = flags('RXHARNESS_LOAD_SERVE_FLAGS');
const RELAY_FLAGS = flags('RXHARNESS_LOAD_RELAY_FLAGS');
const P99_TARGET_MS = 100;
const TSX = ['--import', 'tsx'];

/** Node flags for one side, from the environment variable `name` (space-separated). */
function flags(name: string): string[] {
  return (process.env[name] ?? '').split(' ').filter(Boolean);
}

/** The run counts of `RXHARNESS_LOAD_LADDER` (`100,200,400`), rising; undefined when unset. */
function ladder(text: string | undefined): number[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const counts = text.split(',').map((part) => Number(part.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`RXHARNESS_LOAD_LADDER takes whole run counts separated by commas, e.g. 100,200,400,1000 (got ${JSON.stringify(text)})`);
  return [...new Set(counts)].sort((a, b) => a - b);
}

const p = (side: LoadReport, q: number): number => percentile(side.latencies, q);

/** The full table for one load: completion, latency, CPU, memory, loop delay. */
function rows(runs: number, serve: SideReport, relay: SideReport): ResultRow[] {
  const s = serve.clients;
  const r = relay.clients;
  const rssPerRun = (serve.peakRss - serve.idleRss) / 1024 / runs;
  return [
    { benchmark: 'serve-load', metric: `runs completed of ${runs} started at once (2 children each; refused, failed)`, unit: 'runs', rxharness: s.completed, baseline: runs, target: `= ${runs}`, pass: s.completed === runs, details: { refused: s.refused, failed: s.failed, failures: s.failures, wallMs: s.wallMs, relayCompleted: r.completed, relayFailures: r.failures } },
    { benchmark: 'serve-load', metric: 'delivery latency p50, model chunk sent -> SSE event read', unit: 'ms', rxharness: p(s, 50), baseline: p(r, 50), ratio: p(s, 50) / p(r, 50), details: { samples: s.latencies.length, relaySamples: r.latencies.length } },
    { benchmark: 'serve-load', metric: 'delivery latency p99', unit: 'ms', rxharness: p(s, 99), baseline: p(r, 99), ratio: p(s, 99) / p(r, 99), target: `<= ${P99_TARGET_MS} ms`, pass: p(s, 99) <= P99_TARGET_MS, details: { max: p(s, 100), relayMax: p(r, 100) } },
    ...loopDelayRows(serve, relay),
    cpuRow(serve, relay),
    ioCallRow(serve, relay),
    { benchmark: 'serve-load', metric: 'RSS per live run (peak minus idle, serve process)', unit: 'KiB', rxharness: rssPerRun, baseline: (relay.peakRss - relay.idleRss) / 1024 / runs, target: '<= 100 KiB', pass: rssPerRun <= 100, details: { idleMiB: serve.idleRss / 2 ** 20, peakMiB: serve.peakRss / 2 ** 20 } },
  ];
}

/** CPU per delivered event of each side, against the target. */
function cpuRow(serve: SideReport, relay: SideReport, prefix = ''): ResultRow {
  const perEvent = (side: SideReport): number => (side.cpuMs * 1000) / side.clients.events;
  const ratio = perEvent(serve) / perEvent(relay);
  const details = { events: serve.clients.events, relayEvents: relay.clients.events, cpuMs: serve.cpuMs, relayCpuMs: relay.cpuMs };
  return { benchmark: 'serve-load', metric: `${prefix}CPU per delivered event (serve process vs bare relay)`, unit: 'µs', rxharness: perEvent(serve), baseline: perEvent(relay), ratio, target: '<= 2.00x', pass: ratio <= 2, details };
}

/**
 * The kernel calls behind the CPU row: a side that falls behind finds several chunks in one
 * socket read and writes several events in one write, so it pays fewer calls per event.
 */
function ioCallRow(serve: SideReport, relay: SideReport, prefix = ''): ResultRow {
  const perEvent = (side: SideReport): number => (side.ioCalls.reads + side.ioCalls.writes) / side.clients.events;
  return { benchmark: 'serve-load', metric: `${prefix}read and write calls to the kernel per delivered event (serve vs relay)`, unit: 'calls', rxharness: perEvent(serve), baseline: perEvent(relay), ratio: perEvent(serve) / perEvent(relay), details: { serve: serve.ioCalls, relay: relay.ioCalls } };
}

/** The server's loop delay beside the delivery p99 (its share of it), and the clients' own. */
function loopDelayRows(serve: SideReport, relay: SideReport, prefix = ''): ResultRow[] {
  return [
    { benchmark: 'serve-load', metric: `${prefix}server event-loop delay p99 (serve vs relay process)`, unit: 'ms', rxharness: serve.loopDelay.p99, baseline: relay.loopDelay.p99, details: { serve: serve.loopDelay, relay: relay.loopDelay } },
    { benchmark: 'serve-load', metric: `${prefix}load clients' own event-loop delay p99 (serve's load vs relay's)`, unit: 'ms', rxharness: serve.clients.clientLoopDelay.p99, baseline: relay.clients.clientLoopDelay.p99, details: { serve: serve.clients.clientLoopDelay, relay: relay.clients.clientLoopDelay } },
  ];
}

/** One load of the ladder: completion and p99 with the loop delays beside it. */
function stepRows(runs: number, serve: SideReport, relay: SideReport): ResultRow[] {
  const prefix = `${runs} runs: `;
  return [
    { benchmark: 'serve-load', metric: `${prefix}runs completed (serve vs relay)`, unit: 'runs', rxharness: serve.clients.completed, baseline: relay.clients.completed, target: `= ${runs}`, pass: serve.clients.completed === runs, details: { failures: serve.clients.failures, relayFailures: relay.clients.failures } },
    { benchmark: 'serve-load', metric: `${prefix}delivery latency p99`, unit: 'ms', rxharness: p(serve.clients, 99), baseline: p(relay.clients, 99), ratio: p(serve.clients, 99) / p(relay.clients, 99), target: `<= ${P99_TARGET_MS} ms`, pass: p(serve.clients, 99) <= P99_TARGET_MS, details: { p50: p(serve.clients, 50), relayP50: p(relay.clients, 50), relayMeetsTarget: p(relay.clients, 99) <= P99_TARGET_MS } },
    ...loopDelayRows(serve, relay, prefix),
    cpuRow(serve, relay, prefix),
    ioCallRow(serve, relay, prefix),
  ];
}

/** The highest load of the ladder at which each side met the p99 target (0: none did). */
function ladderSummary(steps: readonly { runs: number; serve: SideReport; relay: SideReport }[]): ResultRow {
  const highest = (side: 'serve' | 'relay'): number => Math.max(0, ...steps.filter((step) => p(step[side].clients, 99) <= P99_TARGET_MS && step[side].clients.completed === step.runs).map((step) => step.runs));
  return { benchmark: 'serve-load', metric: `highest load of ${steps.map((step) => step.runs).join(', ')} runs with every run completed and p99 <= ${P99_TARGET_MS} ms`, unit: 'runs', rxharness: highest('serve'), baseline: highest('relay'), details: { ladder: steps.map((step) => step.runs) } };
}

/** Runs the benchmark and returns its table rows. */
export async function serveLoadBenchmark(): Promise<ResultRow[]> {
  const model = await startLineProcess([...TSX, fileURLToPath(new URL('./support/paced-model.ts', import.meta.url))], 'the paced model');
  try {
    const { baseURL } = JSON.parse(model.firstLine) as { baseURL: string };
    if (LADDER === undefined) {
      const serve = await serveSide(baseURL, RUNS, SERVE_FLAGS);
      return rows(RUNS, serve, await relaySide(baseURL, RUNS, RELAY_FLAGS));
    }
    const steps: { runs: number; serve: SideReport; relay: SideReport }[] = [];
    for (const runs of LADDER) {
      const serve = await serveSide(baseURL, runs, SERVE_FLAGS);
      steps.push({ runs, serve, relay: await relaySide(baseURL, runs, RELAY_FLAGS) });
    }
    return [...steps.flatMap((step) => stepRows(step.runs, step.serve, step.relay)), ladderSummary(steps)];
  } finally {
    await model.stop();
  }
}
