/**
 * Runs over HTTP: how long an event takes from the run's event log to a client attached
 * over server-sent events (`runsHandler` on loopback, the client's `http` in the same
 * process), and how much memory a finished run costs while it is retained for replay.
 *
 * @module
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventLog, SequencedEvent } from '../src/index.js';
import type { ResultRow } from './support/result-row.js';
import { runWorker } from './support/run-worker.js';
import { rx } from './support/rxharness.js';
import { slope } from './support/stats.js';

/** Events of the measured run: one character each, one every millisecond (a fast model's pace). */
const EVENTS = 3_000;

/** The `p`-th percentile (nearest rank) of `values`. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** An event log that notes when each event was appended, around the embedded one. */
function timedLog(appendedAt: Map<number, number>): EventLog {
  const inner = new rx.MemoryEventLog();
  return {
    append: (entry: SequencedEvent) => {
      appendedAt.set(entry.seq, performance.now());
      return inner.append(entry);
    },
    read: (runId, after) => inner.read(runId, after),
    end: (runId, ending) => inner.end(runId, ending),
    delete: (runId) => inner.delete(runId),
  };
}

/** Follows `url` and resolves, per event, the time its message was complete at the client. */
function follow(url: string): Promise<Map<number, number>> {
  return new Promise((resolve, reject) => {
    const seen = new Map<number, number>();
    http.get(url, (response) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const now = performance.now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('id: ')) seen.set(Number(block.slice(4, block.indexOf('\n'))), now);
        }
      });
      response.on('end', () => resolve(seen));
    }).on('error', reject);
  });
}

/** One run followed by `clients` clients: every client's latency of every event, in ms. */
async function latencies(clients: number): Promise<number[]> {
  const appendedAt = new Map<number, number>();
  const model = new rx.ScriptedModel(() => ({ text: 'x'.repeat(EVENTS), chunkSize: 1, chunkDelayMs: 1 }));
  const engine = new rx.HarnessEngine({ model, eventLog: timedLog(appendedAt) });
  const server = http.createServer(rx.runsHandler(engine));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const run = engine.start('go');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/runs/${run.runId}/events`;
    const followed = await Promise.all(Array.from({ length: clients }, () => follow(url)));
    const samples: number[] = [];
    for (const seen of followed) {
      if (seen.size !== appendedAt.size) throw new Error(`runs-http: a client saw ${seen.size} of ${appendedAt.size} events`);
      // events appended before the client attached are a replay, not a live delivery
      for (const [seq, at] of seen) if (seq > 10) samples.push(at - appendedAt.get(seq)!);
    }
    return samples;
  } finally {
    await engine.close();
    server.closeAllConnections();
    server.close();
  }
}

interface RetainedReport {
  readonly eventsPerRun: number;
  readonly samples: { runs: number; heapUsed: number }[];
}

/** Runs the benchmark and returns its table rows. */
export async function runsHttpBenchmark(): Promise<ResultRow[]> {
  await latencies(1); // warm-up
  const one = await latencies(1);
  const ten = await latencies(10);
  const flags = ['--import', 'tsx', '--expose-gc'];
  const kept = await runWorker<RetainedReport>('retained-runs-worker.ts', { maxRetainedRuns: 100_000 }, flags);
  const dropped = await runWorker<RetainedReport>('retained-runs-worker.ts', { maxRetainedRuns: 0 }, flags);
  const perRun = (r: RetainedReport) => slope(r.samples.map((s) => s.runs), r.samples.map((s) => s.heapUsed));
  const retained = perRun(kept) - perRun(dropped);
  return [
    { benchmark: 'http', metric: `attach latency p50, 1 SSE client, loopback (${EVENTS} events, 1 ms apart)`, unit: 'ms', rxharness: percentile(one, 50), details: { samples: one.length, p90: percentile(one, 90), max: percentile(one, 100) } },
    { benchmark: 'http', metric: 'attach latency p99, 1 SSE client, loopback', unit: 'ms', rxharness: percentile(one, 99) },
    { benchmark: 'http', metric: 'attach latency p50, 10 SSE clients on one run', unit: 'ms', rxharness: percentile(ten, 50), details: { samples: ten.length } },
    { benchmark: 'http', metric: 'attach latency p99, 10 SSE clients on one run', unit: 'ms', rxharness: percentile(ten, 99) },
    {
      benchmark: 'http',
      metric: `heap per retained finished run (3 tasks, ${kept.eventsPerRun} events), minus a registry keeping none`,
      unit: 'KiB',
      rxharness: retained / 1024,
      details: { bytesPerEvent: retained / kept.eventsPerRun, kept: kept.samples, dropped: dropped.samples },
    },
  ];
}
