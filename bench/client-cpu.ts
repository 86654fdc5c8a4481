/**
 * Client CPU: the overhead benchmark's traffic replayed inside the process
 * (`support/replay-fetch.ts`: the recorded responses, in the pieces the network delivered
 * them, without a socket or a server process), so what is measured is the client's own work
 * and nothing else on the machine: `engine.stream()`, `engine.call()` and the limit loop, each
 * a run's CPU time, interleaved. Steadier than the wall-time comparison on a shared machine,
 * and the place to profile the hot path:
 *
 * ```sh
 * node --cpu-prof --import tsx bench/client-cpu.ts stream 200   # one side, many runs
 * # sides interleaved, and their profile told apart by side:
 * node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/client-cpu.ts call,limit 60 --windows /tmp/windows.json
 * node --import tsx bench/support/profile-by-side.ts /tmp/prof/<the larger file>.cpuprofile /tmp/windows.json
 * ```
 *
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { count, lastValueFrom } from 'rxjs';
import type { HarnessEngine } from '../src/index.js';
import { DELEGATION } from './scenarios/delegation.js';
import { benchClient } from './support/bench-client.js';
import { delegationEngine } from './support/delegation-engine.mjs';
import { limitRun } from './support/limit-client.js';
import { rounds } from './support/mode.js';
import { pieceCount, recordingFetch, replayFetch, type Recordings } from './support/replay-fetch.js';
import type { SideWindow } from './support/profile-by-side.js';
import type { ResultRow } from './support/result-row.js';
import { startServer } from './support/server-process.js';
import { median, ratios, rotate } from './support/stats.js';
import { makeTempDirs, type TempDirs } from './support/temp-dirs.js';

const WARMUP_ROUNDS = 10;
const ROUNDS = rounds(60, 15);
const SIDES = ['stream', 'call', 'limit', 'start', 'budget'] as const;
type Side = (typeof SIDES)[number];
const { mainPrompt, workers } = DELEGATION;

interface Replay {
  readonly engine: HarnessEngine;
  readonly sides: Record<Side, () => Promise<unknown>>;
  readonly pieces: number;
}

/** Records one run against the real server, then builds the sides on a replaying client. */
async function setUp(dirs: TempDirs): Promise<Replay> {
  const server = await startServer('delegation');
  const recordings: Recordings = new Map();
  const bodies: unknown[] = [];
  try {
    const recording = recordingFetch(recordings);
    const capture: typeof fetch = (url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return recording(url, init);
    };
    const result = await (await delegationEngine({ ...dirs, baseURL: server.baseURL, client: benchClient(server.baseURL, capture) })).call(mainPrompt);
    if (result.abnormal) throw new Error(`client-cpu: the recorded run failed: ${result.error}`);
  } finally {
    await server.close();
  }
  const baseURL = 'http://replay.invalid/v1';
  const replay = replayFetch(recordings);
  const engine = await delegationEngine({ ...dirs, baseURL, client: benchClient(baseURL, replay), maxRetainedRuns: 1 });
  const sides: Record<Side, () => Promise<unknown>> = {
    stream: async () => {
      const events = await lastValueFrom(engine.stream(mainPrompt).pipe(count()));
      if (events < 8_000) throw new Error(`client-cpu: a streamed run had ${events} events`);
    },
    call: async () => {
      const result = await engine.call(mainPrompt);
      if (result.abnormal) throw new Error(`client-cpu: a call failed: ${result.error}`);
    },
    limit: () => limitRun(baseURL, bodies, workers, replay),
    start: async () => {
      const run = engine.start(mainPrompt);
      const events = await lastValueFrom(run.events$.pipe(count()));
      if (events < 8_000) throw new Error(`client-cpu: a started run logged ${events} events`);
    },
    budget: async () => {
      const events = await lastValueFrom(engine.stream(mainPrompt, { tokenBudget: 100_000_000 }).pipe(count()));
      if (events < 8_000) throw new Error(`client-cpu: a run with a budget had ${events} events`);
    },
  };
  return { engine, sides, pieces: pieceCount(recordings) };
}

async function cpuOf(run: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** Runs the benchmark and returns its table rows. */
export async function clientCpuBenchmark(): Promise<ResultRow[]> {
  const dirs = await makeTempDirs();
  try {
    const { sides, pieces } = await setUp(dirs);
    const cpu = Object.fromEntries(SIDES.map((side) => [side, [] as number[]])) as Record<Side, number[]>;
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const side of rotate(SIDES, round)) {
        const ms = await cpuOf(sides[side]);
        if (round >= WARMUP_ROUNDS) cpu[side].push(ms);
      }
    }
    const row = (side: Side, base: Side, metric: string, limit?: number): ResultRow => {
      const perRun = ratios(cpu[side], cpu[base]);
      const ratio = median(perRun);
      return {
        benchmark: 'client-cpu',
        metric,
        unit: 'ms',
        rxharness: median(cpu[side]),
        baseline: median(cpu[base]),
        ratio,
        ...(limit === undefined ? {} : { target: `<= ${limit.toFixed(2)}x`, pass: ratio <= limit }),
        details: { runs: ROUNDS, networkReadsPerRun: pieces, [`${side}Ms`]: cpu[side], [`${base}Ms`]: cpu[base], ratios: perRun },
      };
    };
    return [
      row('stream', 'limit', 'stream() CPU per run vs the limit, replayed in process'),
      row('call', 'limit', 'call() CPU per run vs the limit, replayed in process'),
      row('start', 'stream', 'start() + events$ CPU per run vs stream(), replayed'),
      row('budget', 'stream', 'stream() with a tokenBudget, CPU per run vs without, replayed'),
    ];
  } finally {
    await dirs.remove();
  }
}

// Profiling entry: `bench/client-cpu.ts <side>[,<side>...] <runs> [--windows FILE]` runs some
// sides only, rotating; `--windows` writes when each measured run began and ended, for
// `support/profile-by-side.ts` (a profile of one side alone misleads: V8 optimizes and sizes
// its heap for that side only).
if (import.meta.url === `file://${process.argv[1]}`) {
  const chosen = (process.argv[2] ?? 'stream').split(',') as Side[];
  const runs = Number(process.argv[3] ?? 100);
  const at = process.argv.indexOf('--windows');
  const windowsFile = at < 0 ? undefined : process.argv[at + 1];
  const dirs = await makeTempDirs();
  try {
    const { sides } = await setUp(dirs);
    const samples = Object.fromEntries(chosen.map((side) => [side, [] as number[]]));
    const windows: SideWindow[] = [];
    for (let round = 0; round < runs + WARMUP_ROUNDS; round++) {
      for (const side of rotate(chosen, round)) {
        const begin = process.hrtime.bigint();
        const ms = await cpuOf(sides[side]);
        if (round < WARMUP_ROUNDS) continue;
        samples[side]!.push(ms);
        // Microseconds on the monotonic clock, as a .cpuprofile's timestamps.
        windows.push([side, Number(begin / 1000n), Number(process.hrtime.bigint() / 1000n)]);
      }
    }
    for (const side of chosen) process.stdout.write(`${side}: ${median(samples[side]!).toFixed(2)} ms CPU per run (median of ${runs})\n`);
    if (windowsFile) await writeFile(windowsFile, JSON.stringify(windows));
  } finally {
    await dirs.remove();
  }
}
