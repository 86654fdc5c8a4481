/**
 * `npm run bench`: builds, then runs every benchmark against the shipped build (`dist/`)
 * and prints one table. `--json` prints the machine-readable results instead;
 * `--only <name>[,<name>]` runs some of them (overhead, client-cpu, wrapping, scheduling, peer,
 * scale, scale-out, ndjson, session-less, memory, http, serve-load, first-event, tree-tools, policy-cost); `--quick` runs fewer rounds (`support/mode.ts`).
 * Progress goes to stderr. See docs/performance.md for what each one measures.
 *
 * @module
 */
import { cpus, platform, release, totalmem } from 'node:os';
import { clientCpuBenchmark } from './client-cpu.js';
import { firstEventBenchmark } from './first-event.js';
import { memoryBenchmark } from './memory.js';
import { ndjsonBenchmark } from './ndjson.js';
import { overheadBenchmark } from './overhead.js';
import { peerBenchmark } from './peer.js';
import { policyCostBenchmark } from './policy-cost.js';
import { runsHttpBenchmark } from './runs-http.js';
import { scaleOutBenchmark } from './scale-out.js';
import { scaleBenchmark } from './scale.js';
import { serveLoadBenchmark } from './serve-load.js';
import { schedulingBenchmark } from './scheduling.js';
import { sessionLessBenchmark } from './session-less.js';
import type { ResultRow } from './support/result-row.js';
import { formatTable } from './support/table.js';
import { treeToolsBenchmark } from './tree-tools.js';
import { wrappingBenchmark } from './wrapping.js';

const BENCHMARKS: Record<string, () => Promise<ResultRow[]>> = {
  overhead: overheadBenchmark,
  'client-cpu': clientCpuBenchmark,
  wrapping: wrappingBenchmark,
  scheduling: schedulingBenchmark,
  peer: peerBenchmark,
  scale: scaleBenchmark,
  'scale-out': scaleOutBenchmark,
  ndjson: ndjsonBenchmark,
  'session-less': sessionLessBenchmark,
  memory: memoryBenchmark,
  http: runsHttpBenchmark,
  'serve-load': serveLoadBenchmark,
  'first-event': firstEventBenchmark,
  'tree-tools': treeToolsBenchmark,
  'policy-cost': policyCostBenchmark,
};

function selected(args: readonly string[]): string[] {
  const at = args.indexOf('--only');
  if (at < 0) return Object.keys(BENCHMARKS);
  const names = (args[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (names.length === 0 || unknown.length) {
    throw new Error(`--only takes benchmark names from: ${Object.keys(BENCHMARKS).join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  return names;
}

const args = process.argv.slice(2);
const machine = {
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  os: `${platform()} ${release()}`,
};
const rows: ResultRow[] = [];
const started = performance.now();
for (const name of selected(args)) {
  process.stderr.write(`bench: ${name}...\n`);
  const t = performance.now();
  rows.push(...(await BENCHMARKS[name]!()));
  process.stderr.write(`bench: ${name} done in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
}
const totalSeconds = (performance.now() - started) / 1000;
if (args.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ machine, totalSeconds, results: rows }, null, 2)}\n`);
} else {
  process.stdout.write(`rxharness bench: node ${machine.node}, ${machine.cpu} x${machine.cores}, ${machine.memoryGiB} GiB, ${machine.os}\n\n`);
  process.stdout.write(`${formatTable(rows)}\n\n(${totalSeconds.toFixed(0)} s; medians over runs; ratio = median of per-run ratios rxharness / baseline)\n`);
}
