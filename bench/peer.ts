/**
 * Peer: the delegation scenario through rxharness (`multitask`, streamed) and through
 * `@openai/agents` (agents-as-tools, parallel tool calls, streamed), against the same fake
 * server. Each side runs in its own fresh `node` process per round (one warm-up run, then
 * timed runs), alternating which side goes first; wall time is the median of a process's
 * runs, memory its peak RSS (and, for information, its sampled peak JS heap).
 *
 * @module
 */
import { DELEGATION } from './scenarios/delegation.js';
import type { ResultRow } from './support/result-row.js';
import { runWorker } from './support/run-worker.js';
import { startServer } from './support/server-process.js';
import { median, ratios, rotate } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';

const ROUNDS = 7;
const RUNS_PER_PROCESS = 3;

/** What `workers/measure-runs.mjs` prints. */
interface WorkerReport {
  readonly wallMs: number[];
  readonly peakRssMiB: number;
  readonly setupRssMiB: number;
  readonly peakHeapUsedMiB: number;
  readonly peakArrayBuffersMiB: number;
  readonly garbageCollections: number;
  readonly events: number;
}

const WORKERS = { rxharness: 'peer-rxharness.mjs', peer: 'peer-openai-agents.mjs' } as const;
type Side = keyof typeof WORKERS;
type Measure = (report: WorkerReport) => number;

/** Runs the benchmark and returns its table rows. */
export async function peerBenchmark(): Promise<ResultRow[]> {
  const server = await startServer('delegation');
  const dirs = await makeTempDirs();
  try {
    const config = { baseURL: server.baseURL, runs: RUNS_PER_PROCESS, workspace: dirs.workspace, home: dirs.home };
    const reports: Record<Side, WorkerReport[]> = { rxharness: [], peer: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of rotate(['rxharness', 'peer'] as const, round)) {
        const before = (await server.stats()).requests;
        reports[side].push(await runWorker<WorkerReport>(WORKERS[side], config));
        const sent = (await server.stats()).requests - before;
        const expected = (DELEGATION.workers + 2) * (RUNS_PER_PROCESS + 1);
        if (sent !== expected) throw new Error(`peer: the ${side} process sent ${sent} requests, expected ${expected}`);
      }
    }
    const row = (metric: string, unit: string, measure: Measure, target: boolean): ResultRow => {
      const ours = reports.rxharness.map(measure);
      const theirs = reports.peer.map(measure);
      const perRound = ratios(ours, theirs);
      const ratio = median(perRound);
      return {
        benchmark: 'peer',
        metric,
        unit,
        rxharness: median(ours),
        baseline: median(theirs),
        ratio,
        ...(target ? { target: '<= 1.00x', pass: ratio <= 1 } : {}),
        details: { processes: ROUNDS, runsPerProcess: RUNS_PER_PROCESS, rxharness: ours, openaiAgents: theirs, ratios: perRound },
      };
    };
    const all = (measure: Measure) => ({ rxharness: reports.rxharness.map(measure), openaiAgents: reports.peer.map(measure) });
    return [
      row('delegation wall vs @openai/agents', 'ms', (r) => median(r.wallMs), true),
      {
        ...row('process peak RSS vs @openai/agents', 'MiB', (r) => r.peakRssMiB, true),
        details: {
          setupRssMiB: all((r) => r.setupRssMiB),
          peakArrayBuffersMiB: all((r) => r.peakArrayBuffersMiB),
          garbageCollections: all((r) => r.garbageCollections),
          events: all((r) => r.events),
        },
      },
      row('peak JS heap (heapUsed, sampled) vs @openai/agents', 'MiB', (r) => r.peakHeapUsedMiB, false),
    ];
  } finally {
    await server.close();
    await dirs.remove();
  }
}
