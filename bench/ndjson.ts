/**
 * NDJSON reading: how `parseNdjson` scales with the length of one line that arrives in
 * 4 KiB chunks (as a pipe or a socket delivers it). A linear reader spends the same time per
 * megabyte on a 16 MB line as on a 1 MB one; the old reader, which searched the whole
 * pending text on every chunk, was quadratic (16 MB took 8 s and more).
 *
 * @module
 */
import { from, lastValueFrom, toArray } from 'rxjs';
import type { ResultRow } from './support/result-row.js';
import { rx } from './support/rxharness.js';
import { median, ratios, since } from './support/stats.js';

const MB = 1024 * 1024;
const CHUNK = 4096;
const WARMUP_ROUNDS = 2;
const ROUNDS = 7;
const TARGET = 2;

/** The chunks of one NDJSON line holding a `RunEnd` whose text is `megabytes` MB long. */
function lineChunks(megabytes: number): string[] {
  const event = { type: 'RunEnd', runId: 'r', agentName: 'main', text: 'x'.repeat(megabytes * MB), abnormal: false, steps: 1,
    metrics: { promptTokens: 0, completionTokens: 0, totalTokens: 0, durationMs: 0, tasks: 0 } };
  const line = `${JSON.stringify(event)}\n`;
  const chunks: string[] = [];
  for (let i = 0; i < line.length; i += CHUNK) chunks.push(line.slice(i, i + CHUNK));
  return chunks;
}

/** Milliseconds per megabyte to parse the chunks. */
async function msPerMB(chunks: readonly string[], megabytes: number): Promise<number> {
  const start = performance.now();
  const events = await lastValueFrom(from(chunks).pipe(rx.parseNdjson({ maxLineLength: 64 * MB }), toArray()));
  const ms = since(start);
  if (events.length !== 1 || events[0]?.type !== 'RunEnd') throw new Error('ndjson: the line did not parse back to its RunEnd');
  return ms / megabytes;
}

/** Runs the benchmark and returns its table row. */
export async function ndjsonBenchmark(): Promise<ResultRow[]> {
  const small = lineChunks(1);
  const large = lineChunks(16);
  const samples = { small: [] as number[], large: [] as number[] };
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const perMB = { small: await msPerMB(small, 1), large: await msPerMB(large, 16) };
    if (round >= WARMUP_ROUNDS) {
      samples.small.push(perMB.small);
      samples.large.push(perMB.large);
    }
  }
  const perRun = ratios(samples.large, samples.small);
  const ratio = median(perRun);
  return [
    {
      benchmark: 'ndjson',
      metric: 'parseNdjson, 16 MB line vs 1 MB line in 4 KiB chunks: time per MB',
      unit: 'ms/MB',
      rxharness: median(samples.large),
      baseline: median(samples.small),
      ratio,
      target: `<= ${TARGET.toFixed(2)}x`,
      pass: ratio <= TARGET,
      details: { chunkBytes: CHUNK, runs: ROUNDS, large: samples.large, small: samples.small, ratios: perRun },
    },
  ];
}
