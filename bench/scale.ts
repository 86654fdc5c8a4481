/**
 * Scale: 10,000 delegated tasks through one engine, in a fresh process each for the default
 * `MemorySessionStore` (which keeps every child session for resume, so it grows by design)
 * and for a store that drops finished task sessions. Reports throughput and the slope of the
 * heap after warm-up (least squares over samples taken after a forced GC every 1,000 tasks).
 *
 * @module
 */
import type { ResultRow } from './support/result-row.js';
import { runWorker } from './support/run-worker.js';
import { slope } from './support/stats.js';

/** Bytes per task the heap may grow by and still count as flat: 0.5 MB over 10,000 tasks. */
const FLAT_BYTES_PER_TASK = 50;

interface ScaleReport {
  readonly store: 'memory' | 'dropping';
  readonly tasks: number;
  readonly busyMs: number;
  readonly samples: readonly { tasks: number; heapUsed: number }[];
  readonly sessionsHeld: number;
  readonly tasksTracked: number;
}

function heapSlope(report: ScaleReport): number {
  return slope(report.samples.map((s) => s.tasks), report.samples.map((s) => s.heapUsed));
}

function details(report: ScaleReport) {
  const first = report.samples[0]!.heapUsed;
  const last = report.samples.at(-1)!.heapUsed;
  return {
    heapUsedMiB: report.samples.map((s) => +(s.heapUsed / 2 ** 20).toFixed(2)),
    growthMiB: (last - first) / 2 ** 20,
    sessionsHeld: report.sessionsHeld,
    tasksTracked: report.tasksTracked,
    tasksPerSecond: report.tasks / (report.busyMs / 1000),
  };
}

/** Runs the benchmark and returns its table rows. */
export async function scaleBenchmark(): Promise<ResultRow[]> {
  const flags = ['--import', 'tsx', '--expose-gc'];
  const dropping = await runWorker<ScaleReport>('scale-worker.ts', { store: 'dropping' }, flags);
  const memory = await runWorker<ScaleReport>('scale-worker.ts', { store: 'memory' }, flags);
  const flat = heapSlope(dropping);
  return [
    {
      benchmark: 'scale',
      metric: `throughput, ${dropping.tasks.toLocaleString('en')} tasks (multitask x100, ScriptedModel)`,
      unit: 'tasks/s',
      rxharness: dropping.tasks / (dropping.busyMs / 1000),
      details: { droppingStore: details(dropping), memoryStore: details(memory) },
    },
    {
      benchmark: 'scale',
      metric: 'heap slope after warm-up, store dropping finished tasks',
      unit: 'B/task',
      rxharness: flat,
      target: `< ${FLAT_BYTES_PER_TASK} B/task`,
      pass: flat < FLAT_BYTES_PER_TASK,
      details: details(dropping),
    },
    {
      benchmark: 'scale',
      metric: 'heap slope after warm-up, default MemorySessionStore',
      unit: 'B/task',
      rxharness: heapSlope(memory),
      details: details(memory),
    },
  ];
}
