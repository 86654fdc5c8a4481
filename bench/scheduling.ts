/**
 * Scheduling: a `multitask` of 8 tasks through a pool of 3, each child answering after
 * 300 ms, so the ideal wall time of the call is ceil(8 / 3) * 300 = 900 ms. Measures the
 * call's wall time (from its `ToolCallStart` to its `ToolCallEnd` in the parent's stream)
 * and the peak number of requests the server saw at once.
 *
 * @module
 */
import { CHILD_DELAY_MS, SLEEPER_MARKER, TASKS } from './scenarios/scheduling.js';
import { benchClient } from './support/bench-client.js';
import type { ResultRow } from './support/result-row.js';
import { rx } from './support/rxharness.js';
import { startServer } from './support/server-process.js';
import { median } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';

const POOL = 3;
const WARMUP_ROUNDS = 1;
const ROUNDS = 5;
const IDEAL_MS = Math.ceil(TASKS / POOL) * CHILD_DELAY_MS;

/** Runs the benchmark and returns its table rows. */
export async function schedulingBenchmark(): Promise<ResultRow[]> {
  const server = await startServer('scheduling');
  const dirs = await makeTempDirs();
  try {
    const engine = new rx.HarnessEngine({
      model: new rx.OpenAIChatModel({ model: 'bench-model', client: benchClient(server.baseURL) }),
      workspace: dirs.workspace,
      homeDir: dirs.home,
      multitaskMaxTasks: POOL,
    });
    engine.agents.add(rx.defineAgent({ name: 'sleeper', description: 'Answers after a while.', systemPrompt: `${SLEEPER_MARKER} You wait.` }));
    await engine.agents.list();
    const walls: number[] = [];
    const peaks: number[] = [];
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      await server.resetPeak();
      let started = 0;
      let wall = -1;
      for await (const event of rx.toAsyncIterable(engine.stream('Run the eight waits.'))) {
        if (event.type === 'ToolCallStart' && event.toolName === 'multitask') started = performance.now();
        if (event.type === 'ToolCallEnd' && event.toolName === 'multitask') {
          if (event.error) throw new Error(`scheduling: multitask failed: ${event.error}`);
          wall = performance.now() - started;
        }
      }
      if (wall < 0) throw new Error('scheduling: the run never called multitask');
      if (round < WARMUP_ROUNDS) continue;
      walls.push(wall);
      peaks.push((await server.stats()).peakInFlight);
    }
    const ratio = median(walls.map((w) => w / IDEAL_MS));
    const peak = Math.max(...peaks);
    return [
      {
        benchmark: 'scheduling',
        metric: `multitask ${TASKS} tasks, pool ${POOL}, ${CHILD_DELAY_MS} ms children: wall vs ideal`,
        unit: 'ms',
        rxharness: median(walls),
        baseline: IDEAL_MS,
        ratio,
        target: '<= 1.05x',
        pass: ratio <= 1.05,
        details: { runs: ROUNDS, wallMs: walls },
      },
      {
        benchmark: 'scheduling',
        metric: 'peak concurrent requests at the server (max over runs)',
        unit: 'requests',
        rxharness: peak,
        baseline: POOL,
        ratio: peak / POOL,
        target: `= ${POOL}`,
        pass: peaks.every((p) => p === POOL),
        details: { peaks },
      },
    ];
  } finally {
    await server.close();
    await dirs.remove();
  }
}
