/**
 * `rxharness serve` under load (issue 28.1): {@link RUNS} runs started over HTTP at once on
 * one `serve` process (the paced fake model in its own process, about 30 deltas a second per
 * stream, each run delegating to two children), each followed by an SSE client (all in a
 * third process). Measured on the serve process: delivery latency (model chunk sent → SSE
 * event read by the client), CPU per delivered event, RSS per live run; and the same for a
 * bare relay forwarding the same chunks as SSE, no harness.
 *
 * `RXHARNESS_LOAD_RUNS` changes the number of runs (e.g. 100 for a quick look);
 * `RXHARNESS_LOAD_SERVE_FLAGS` adds Node flags to the serve process only (NODE_OPTIONS refuses
 * `--cpu-prof`), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for the profile in docs/performance.md §11.
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { LoadReport } from './support/load-clients.js';
import { cpuMs, rssBytes, startLineProcess, type LineProcess } from './support/line-process.js';
import type { ResultRow } from './support/result-row.js';
import { percentile } from './support/stats.js';

const RUNS = Number(process.env['RXHARNESS_LOAD_RUNS'] ?? 1_000);
const SERVE_FLAGS = (process.env['RXHARNESS_LOAD_SERVE_FLAGS'] ?? '').split(' ').filter(Boolean);
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const TSX = ['--import', 'tsx'];

/** What one side (serve or the relay) cost for the load. */
interface SideReport {
  readonly clients: LoadReport;
  readonly cpuMs: number;
  readonly idleRss: number;
  readonly peakRss: number;
}

async function drive(url: string, token: string, runs: number): Promise<LoadReport> {
  const clients = await startLineProcess([...TSX, here('./support/load-clients.ts'), JSON.stringify({ url, token, runs })], 'the load clients');
  return JSON.parse(clients.firstLine) as LoadReport;
}

/** Loads `server` (already listening at `url`) with {@link RUNS} runs after a warm-up of 20. */
async function measure(server: LineProcess, url: string, token: string): Promise<SideReport> {
  const pid = server.child.pid!;
  await drive(url, token, 20);
  const idleRss = rssBytes(pid);
  const cpuBefore = cpuMs(pid);
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(pid))), 100);
  try {
    const clients = await drive(url, token, RUNS);
    return { clients, cpuMs: cpuMs(pid) - cpuBefore, idleRss, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

async function serveSide(baseURL: string): Promise<SideReport> {
  const token = randomBytes(18).toString('base64url');
  const workspace = mkdtempSync(join(tmpdir(), 'rxharness-load-'));
  const cli = here('../dist/cli.js');
  const args = [...SERVE_FLAGS, cli, 'serve', '--port', '0', '--model', 'paced', '--base-url', baseURL, '--token', token, '--max-runs', String(RUNS * 2), '--max-tasks', '0', '--max-retries', '0', '--workspace', workspace];
  const server = await startLineProcess(args, 'rxharness serve');
  try {
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(server.firstLine)?.[1];
    if (!url) throw new Error(`serve printed no address: ${server.firstLine}`);
    return await measure(server, url, token);
  } finally {
    // Ctrl+C is how serve stops cleanly (stdin means nothing to it): a --cpu-prof profile is written on that exit
    server.child.kill('SIGINT');
    await server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function relaySide(baseURL: string): Promise<SideReport> {
  const relay = await startLineProcess([...TSX, here('./support/bare-relay.ts'), baseURL], 'the bare relay');
  try {
    return await measure(relay, (JSON.parse(relay.firstLine) as { url: string }).url, 'none');
  } finally {
    await relay.stop();
  }
}

function rows(serve: SideReport, relay: SideReport): ResultRow[] {
  const s = serve.clients;
  const r = relay.clients;
  const cpuPerEvent = (side: SideReport): number => (side.cpuMs * 1000) / side.clients.events;
  const rssPerRun = (serve.peakRss - serve.idleRss) / 1024 / RUNS;
  const p = (side: LoadReport, q: number): number => percentile(side.latencies, q);
  return [
    { benchmark: 'serve-load', metric: `runs completed of ${RUNS} started at once (2 children each; refused, failed)`, unit: 'runs', rxharness: s.completed, baseline: RUNS, target: `= ${RUNS}`, pass: s.completed === RUNS, details: { refused: s.refused, failed: s.failed, failures: s.failures, wallMs: s.wallMs, relayCompleted: r.completed } },
    { benchmark: 'serve-load', metric: 'delivery latency p50, model chunk sent -> SSE event read', unit: 'ms', rxharness: p(s, 50), baseline: p(r, 50), ratio: p(s, 50) / p(r, 50), details: { samples: s.latencies.length, relaySamples: r.latencies.length } },
    { benchmark: 'serve-load', metric: 'delivery latency p99', unit: 'ms', rxharness: p(s, 99), baseline: p(r, 99), ratio: p(s, 99) / p(r, 99), target: '<= 100 ms', pass: p(s, 99) <= 100, details: { max: p(s, 100), relayMax: p(r, 100) } },
    { benchmark: 'serve-load', metric: 'CPU per delivered event (serve process vs bare relay)', unit: 'µs', rxharness: cpuPerEvent(serve), baseline: cpuPerEvent(relay), ratio: cpuPerEvent(serve) / cpuPerEvent(relay), target: '<= 2.00x', pass: cpuPerEvent(serve) / cpuPerEvent(relay) <= 2, details: { events: s.events, relayEvents: r.events, cpuMs: serve.cpuMs, relayCpuMs: relay.cpuMs } },
    { benchmark: 'serve-load', metric: 'RSS per live run (peak minus idle, serve process)', unit: 'KiB', rxharness: rssPerRun, baseline: (relay.peakRss - relay.idleRss) / 1024 / RUNS, target: '<= 100 KiB', pass: rssPerRun <= 100, details: { idleMiB: serve.idleRss / 2 ** 20, peakMiB: serve.peakRss / 2 ** 20 } },
  ];
}

/** Runs the benchmark and returns its table rows. */
export async function serveLoadBenchmark(): Promise<ResultRow[]> {
  const model = await startLineProcess([...TSX, here('./support/paced-model.ts')], 'the paced model');
  try {
    const { baseURL } = JSON.parse(model.firstLine) as { baseURL: string };
    const serve = await serveSide(baseURL);
    const relay = await relaySide(baseURL);
    return rows(serve, relay);
  } finally {
    await model.stop();
  }
}
