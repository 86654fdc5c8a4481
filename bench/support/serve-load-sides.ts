/**
 * The two sides of the serve-load benchmark (`bench/serve-load.ts`): `rxharness serve` and the
 * bare relay, each started in its own process for one load of `runs` runs, warmed up with
 * 20, then loaded while its CPU time, its RSS and its event loop's delay are recorded.
 *
 * @module
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { LoadReport, LoopDelay } from './load-clients.js';
import { cpuMs, ioCalls, rssBytes, startLineProcess, type LineProcess } from './line-process.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const TSX = ['--import', 'tsx'];
/** Preloaded into both sides: their event loop's delay, in a file (`loop-delay-probe.mjs`). */
const PROBE = ['--import', here('./loop-delay-probe.mjs')];
const WARM_UP_RUNS = 20;

/** What one side (serve or the relay) cost for one load. */
export interface SideReport {
  readonly clients: LoadReport;
  readonly cpuMs: number;
  /** Its read and write calls to the kernel during the load (sockets, mostly): how many events each one carried. */
  readonly ioCalls: { readonly reads: number; readonly writes: number };
  readonly idleRss: number;
  readonly peakRss: number;
  /** How far the side's event loop fell behind during the load (after the warm-up). */
  readonly loopDelay: LoopDelay;
}

async function drive(url: string, token: string, runs: number): Promise<LoadReport> {
  const clients = await startLineProcess([...TSX, here('./load-clients.ts'), JSON.stringify({ url, token, runs })], 'the load clients');
  return JSON.parse(clients.firstLine) as LoadReport;
}

/** How long the probe may take to answer: it looks every 100 ms, so only a dead or frozen side misses this. */
const PROBE_ANSWER_MS = 30_000;

/**
 * Creates `request` beside the probe's file and waits for the probe to delete it: it has done
 * what was asked. Fails, rather than waiting for ever, when the probe does not answer in
 * {@link PROBE_ANSWER_MS} (its process died or hangs).
 */
async function askProbe(probeFile: string, request: 'reset' | 'ask'): Promise<void> {
  writeFileSync(`${probeFile}.${request}`, '');
  const deadline = Date.now() + PROBE_ANSWER_MS;
  while (existsSync(`${probeFile}.${request}`)) {
    if (Date.now() > deadline) throw new Error(`the loop-delay probe did not answer "${request}" in ${PROBE_ANSWER_MS / 1000} s (${probeFile}): has its process died?`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The probe's figures of the whole load: written when asked. */
async function loopDelayOf(probeFile: string): Promise<LoopDelay> {
  await askProbe(probeFile, 'ask');
  return JSON.parse(readFileSync(probeFile, 'utf8')) as LoopDelay;
}

/** Loads `server` (already listening at `url`, its probe writing `probeFile`) with `runs` runs after a warm-up. */
async function measure(server: LineProcess, url: string, token: string, runs: number, probeFile: string): Promise<SideReport> {
  const pid = server.child.pid!;
  await drive(url, token, WARM_UP_RUNS);
  const idleRss = rssBytes(pid);
  const cpuBefore = cpuMs(pid);
  const ioBefore = ioCalls(pid);
  await askProbe(probeFile, 'reset');
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(pid))), 100);
  try {
    const clients = await drive(url, token, runs);
    const cpu = cpuMs(pid) - cpuBefore;
    const io = ioCalls(pid);
    return { clients, cpuMs: cpu, ioCalls: { reads: io.reads - ioBefore.reads, writes: io.writes - ioBefore.writes }, idleRss, peakRss, loopDelay: await loopDelayOf(probeFile) };
  } finally {
    clearInterval(sampler);
  }
}

/** Starts `rxharness serve` (`serveFlags`: Node flags for it only) on the paced model at `baseURL` and loads it with `runs` runs. */
export async function serveSide(baseURL: string, runs: number, serveFlags: readonly string[]): Promise<SideReport> {
  const token = randomBytes(18).toString('base64url');
  const workspace = mkdtempSync(join(tmpdir(), 'rxharness-load-'));
  const probeFile = join(workspace, 'loop-delay.json');
  const cli = here('../../dist/cli.js');
  const args = [...PROBE, ...serveFlags, cli, 'serve', '--port', '0', '--model', 'paced', '--base-url', baseURL, `--token=${token}`, '--max-runs', String(runs * 2), '--max-tasks', '0', '--max-retries', '0', '--workspace', workspace];
  const server = await startLineProcess(args, 'rxharness serve', { RXHARNESS_LOOP_DELAY_PROBE: probeFile });
  try {
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(server.firstLine)?.[1];
    if (!url) throw new Error(`serve printed no address: ${server.firstLine}`);
    return await measure(server, url, token, runs, probeFile);
  } finally {
    // Ctrl+C is how serve stops cleanly (stdin means nothing to it): a --cpu-prof profile is written on that exit
    server.child.kill('SIGINT');
    await server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Starts the bare relay (`relayFlags`: Node flags for it only) on the paced model at `baseURL` and loads it with `runs` runs. */
export async function relaySide(baseURL: string, runs: number, relayFlags: readonly string[]): Promise<SideReport> {
  const dir = mkdtempSync(join(tmpdir(), 'rxharness-relay-'));
  const probeFile = join(dir, 'loop-delay.json');
  const relay = await startLineProcess([...TSX, ...PROBE, ...relayFlags, here('./bare-relay.ts'), baseURL], 'the bare relay', { RXHARNESS_LOOP_DELAY_PROBE: probeFile });
  try {
    return await measure(relay, (JSON.parse(relay.firstLine) as { url: string }).url, 'none', runs, probeFile);
  } finally {
    await relay.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
