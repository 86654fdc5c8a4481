/**
 * The CPU and garbage of STARTING a run (issue 28, serve's start surge), in one process, with
 * no HTTP and no network: a `HarnessEngine` built as `serve` builds it (built-in tools,
 * delegation tools, built-in agents, the memory session store) over a `ScriptedModel` that
 * answers every request at once with a short final answer, so what is measured is the start
 * path (engine.start -> registry -> scope, tools, session claim -> first request) and the
 * shortest way to the run's end. Runs are started in batches of 100 in the same turn (as
 * 100 POSTs arriving together are), each read to its end through its `events$`.
 *
 * ```sh
 * npm run build && cp -r dist /tmp/before-dist
 * node --import tsx bench/support/run-start-cpu.ts [--dist /tmp/before-dist] [--runs 2000] [--reps 5] [--heap]
 * node --import tsx --cpu-prof --cpu-prof-interval=200 bench/support/run-start-cpu.ts --reps 2
 * ```
 *
 * Prints the CPU (user + system, `process.cpuUsage`) per run of each repetition and their
 * median; with `--heap`, one more repetition under V8's sampling heap profiler (every object
 * sampled, collected ones too) reports the bytes and sampled objects allocated per run and
 * the top allocating functions. With `--delegate`, each run's main agent first calls
 * `multitask` with 2 `general` children (as in serve-load), so child starts are counted too. Each repetition uses a fresh engine; one warm-up repetition
 * (module loading, JIT) is not counted.
 *
 * @module
 */
import { mkdtempSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type * as RxHarness from '../../src/index.js';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: new URL('../../dist', import.meta.url).pathname },
    runs: { type: 'string', default: '2000' },
    reps: { type: 'string', default: '5' },
    heap: { type: 'boolean', default: false },
    delegate: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const BATCH = 100;
const rx = (await import(pathToFileURL(join(resolve(values.dist), 'index.js')).href)) as typeof RxHarness;

/** With `--delegate`, the main agent's first step is serve-load's: `multitask` with 2 `general` children. */
const TWO_TASKS = { tasks: [1, 2].map((index) => ({ index, agent_name: 'general', prompt: `part ${index}`, description: `Part ${index}` })) };
const answer = ({ messages, tools }: RxHarness.ChatRequest): RxHarness.ScriptedReply =>
  values.delegate && tools?.some((t) => t.name === 'multitask') && !messages.some((m) => m.role === 'tool')
    ? { toolCalls: [{ name: 'multitask', args: TWO_TASKS }] }
    : { text: 'done' };

function newEngine(): RxHarness.HarnessEngine {
  const dir = mkdtempSync(join(tmpdir(), 'run-start-cpu-'));
  return new rx.HarnessEngine({ model: new rx.ScriptedModel(answer), workspace: dir, homeDir: dir });
}

/** Starts RUNS runs, BATCH in one turn, each read to its end; resolves when all have ended. */
async function startAll(engine: RxHarness.HarnessEngine): Promise<void> {
  for (let done = 0; done < RUNS; done += BATCH) {
    const ends: Promise<unknown>[] = [];
    for (let i = 0; i < BATCH; i++) {
      const run = engine.start(`task ${done + i}`);
      ends.push(new Promise<void>((end, fail) => void run.events$.subscribe({ complete: () => end(), error: fail })), run.result);
    }
    await Promise.all(ends);
  }
}

async function rep(): Promise<number> {
  const engine = newEngine();
  await engine.agents.list(); // discovery (file I/O) is not a run start
  const before = process.cpuUsage();
  await startAll(engine);
  const used = process.cpuUsage(before);
  await engine.close();
  return (used.user + used.system) / RUNS;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await rep(); // warm-up
const perRun: number[] = [];
for (let i = 0; i < Number(values.reps); i++) perRun.push(await rep());
console.log(`dist ${values.dist}: ${RUNS} runs in batches of ${BATCH}${values.delegate ? ', each delegating to 2 children' : ''}`);
console.log(`CPU per run, µs: ${perRun.map((x) => x.toFixed(0)).join(' ')}; median ${median(perRun).toFixed(0)}`);

if (values.heap) {
  const session = new Session();
  session.connect();
  const engine = newEngine();
  await engine.agents.list();
  // Every 256 bytes, collected objects included: what a run allocates, not what it keeps.
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await startAll(engine);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: HeapNode; samples: { size: number }[] } };
  await engine.close();
  session.disconnect();
  const bytes = profile.samples.reduce((sum, s) => sum + s.size, 0);
  console.log(`allocated per run: ${(bytes / RUNS / 1024).toFixed(1)} KiB sampled, ${(profile.samples.length / RUNS).toFixed(0)} samples (interval 256 B)`);
  const byFunction = new Map<string, number>();
  const walk = (node: HeapNode): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anon)'} ${url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(profile.head);
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [where, size] of top) console.log(`${(size / RUNS).toFixed(0).padStart(8)} B/run  ${where}`);
}

interface HeapNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}
