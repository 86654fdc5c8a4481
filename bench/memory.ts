/**
 * Memory: what one more idle session, retained run and queued task keeps on the heap
 * (`workers/memory-worker.ts`, a fresh process, heap after a forced full GC). Rows for
 * information: there is no target, only a number to watch.
 *
 * @module
 */
import { rounds } from './support/mode.js';
import type { ResultRow } from './support/result-row.js';
import { runWorker } from './support/run-worker.js';

interface Report {
  readonly sessionBytes: number;
  readonly retainedRunBytes: number;
  readonly eventsPerRetainedRun: number;
  readonly longRunBytes: number;
  readonly eventsPerLongRun: number;
  readonly queuedTaskBytes: number;
  readonly counts: { sessions: number; runs: number; tasks: number };
}

/** Runs the benchmark and returns its table rows. */
export async function memoryBenchmark(): Promise<ResultRow[]> {
  const counts = { sessions: rounds(5_000, 1_000), runs: rounds(2_000, 500), tasks: rounds(5_000, 1_000) };
  const report = await runWorker<Report>('memory-worker.ts', counts, ['--import', 'tsx', '--expose-gc']);
  const row = (metric: string, bytes: number, details: Record<string, unknown>): ResultRow => ({ benchmark: 'memory', metric, unit: 'KiB', rxharness: bytes / 1024, details });
  return [
    row(`heap per idle session (engine.call() with a sessionId, then idle; ${counts.sessions.toLocaleString('en')} sessions)`, report.sessionBytes, { bytes: report.sessionBytes }),
    row(`heap per retained finished run (engine.start(), ${report.eventsPerRetainedRun} events logged; ${counts.runs.toLocaleString('en')} runs)`, report.retainedRunBytes, {
      bytes: report.retainedRunBytes,
      bytesPerEvent: report.retainedRunBytes / report.eventsPerRetainedRun,
    }),
    row(`heap per retained long run (engine.start(), ${report.eventsPerLongRun.toLocaleString('en')} events, 16-character deltas; 20 runs)`, report.longRunBytes, {
      bytes: report.longRunBytes,
      bytesPerEvent: report.longRunBytes / report.eventsPerLongRun,
    }),
    row(`heap per queued task (multitask, pool 1; ${counts.tasks.toLocaleString('en')} tasks waiting)`, report.queuedTaskBytes, { bytes: report.queuedTaskBytes }),
  ];
}
