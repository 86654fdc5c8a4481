/**
 * Session-less runs: `engine.call()` without a `sessionId` must leave nothing behind (an
 * ephemeral run stores nothing; task sessions and finished tasks are bounded caches). Reports
 * the slope of the heap after GC over 100,000 such runs (10,000 with `--quick`), after a warm-up that fills the caches.
 *
 * @module
 */
import type { ResultRow } from './support/result-row.js';
import { runWorker } from './support/run-worker.js';
import { rounds } from './support/mode.js';
import { slope } from './support/stats.js';

/** Bytes per run the heap may grow by and still count as flat (5 MB over 100,000 runs). */
const FLAT_BYTES_PER_RUN = 50;
const RUNS = rounds(100_000, 10_000);

interface Report {
  readonly runs: number;
  readonly busyMs: number;
  readonly samples: readonly { runs: number; heapUsed: number }[];
  readonly sessionsHeld: number;
  readonly tasksTracked: number;
}

/** Runs the benchmark and returns its table row. */
export async function sessionLessBenchmark(): Promise<ResultRow[]> {
  const report = await runWorker<Report>('session-less-worker.ts', { runs: RUNS }, ['--import', 'tsx', '--expose-gc']);
  const perRun = slope(report.samples.map((s) => s.runs), report.samples.map((s) => s.heapUsed));
  return [
    {
      benchmark: 'session-less',
      metric: `heap slope over ${report.runs.toLocaleString('en')} engine.call() without a sessionId (each delegating one task)`,
      unit: 'B/run',
      rxharness: perRun,
      target: `< ${FLAT_BYTES_PER_RUN} B/run`,
      pass: perRun < FLAT_BYTES_PER_RUN,
      details: {
        heapUsedMiB: report.samples.map((s) => +(s.heapUsed / 2 ** 20).toFixed(2)),
        sessionsHeld: report.sessionsHeld,
        tasksTracked: report.tasksTracked,
        runsPerSecond: report.runs / (report.busyMs / 1000),
      },
    },
  ];
}
