/**
 * Peers: the delegation scenario through rxharness (`multitask`, streamed), through
 * `@openai/agents` (agents-as-tools, parallel tool calls, streamed) and through the Vercel AI
 * SDK (its documented subagent pattern: tools that stream a worker agent and yield its
 * progress as preliminary results), against the same fake server. Each side runs in its own
 * fresh `node` process per round (one warm-up run, then timed runs), the order rotating from
 * round to round; wall time is the median of a process's runs, memory its peak RSS (and, for
 * information, its sampled peak JS heap).
 *
 * @module
 */
import { DELEGATION } from './scenarios/delegation.js';
import type { ResultRow } from './support/result-row.js';
import { runWorker } from './support/run-worker.js';
import { startServer } from './support/server-process.js';
import { rounds } from './support/mode.js';
import { median, ratios, rotate } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';

const ROUNDS = rounds(7, 3);
/** Timed runs per process (after one warm-up run); the AI SDK's runs take seconds, so fewer of them. */
const RUNS_PER_PROCESS = { rxharness: 3, agents: 3, aiSdk: 2 } as const;

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

const WORKERS = { rxharness: 'peer-rxharness.mjs', agents: 'peer-openai-agents.mjs', aiSdk: 'peer-ai-sdk.mjs' } as const;
type Side = keyof typeof WORKERS;
type Peer = Exclude<Side, 'rxharness'>;
const PEER_NAMES: Record<Peer, string> = { agents: '@openai/agents', aiSdk: 'Vercel AI SDK' };
type Measure = (report: WorkerReport) => number;

/** Runs the benchmark and returns its table rows. */
export async function peerBenchmark(): Promise<ResultRow[]> {
  const server = await startServer('delegation');
  const dirs = await makeTempDirs();
  try {
    const config = { baseURL: server.baseURL, workspace: dirs.workspace, home: dirs.home };
    const reports: Record<Side, WorkerReport[]> = { rxharness: [], agents: [], aiSdk: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of rotate(['rxharness', 'agents', 'aiSdk'] as const, round)) {
        const before = (await server.stats()).requests;
        reports[side].push(await runWorker<WorkerReport>(WORKERS[side], { ...config, runs: RUNS_PER_PROCESS[side] }));
        const sent = (await server.stats()).requests - before;
        const expected = (DELEGATION.workers + 2) * (RUNS_PER_PROCESS[side] + 1);
        if (sent !== expected) throw new Error(`peer: the ${side} process sent ${sent} requests, expected ${expected}`);
      }
    }
    const row = (peer: Peer, metric: string, unit: string, measure: Measure, target: boolean): ResultRow => {
      const ours = reports.rxharness.map(measure);
      const theirs = reports[peer].map(measure);
      const perRound = ratios(ours, theirs);
      const ratio = median(perRound);
      return {
        benchmark: 'peer',
        metric: `${metric} vs ${PEER_NAMES[peer]}`,
        unit,
        rxharness: median(ours),
        baseline: median(theirs),
        ratio,
        ...(target ? { target: '<= 1.00x', pass: ratio <= 1 } : {}),
        details: { processes: ROUNDS, runsPerProcess: { rxharness: RUNS_PER_PROCESS.rxharness, [peer]: RUNS_PER_PROCESS[peer] }, rxharness: ours, [peer]: theirs, ratios: perRound },
      };
    };
    const all = (peer: Peer, measure: Measure) => ({ rxharness: reports.rxharness.map(measure), [peer]: reports[peer].map(measure) });
    return (['agents', 'aiSdk'] as const).flatMap((peer) => [
      row(peer, 'delegation wall', 'ms', (r) => median(r.wallMs), true),
      {
        ...row(peer, 'process peak RSS', 'MiB', (r) => r.peakRssMiB, true),
        details: {
          setupRssMiB: all(peer, (r) => r.setupRssMiB),
          peakArrayBuffersMiB: all(peer, (r) => r.peakArrayBuffersMiB),
          garbageCollections: all(peer, (r) => r.garbageCollections),
          events: all(peer, (r) => r.events),
        },
      },
      row(peer, 'peak JS heap (heapUsed, sampled)', 'MiB', (r) => r.peakHeapUsedMiB, false),
    ]);
  } finally {
    await server.close();
    await dirs.remove();
  }
}
