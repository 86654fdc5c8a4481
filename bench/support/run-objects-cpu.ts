/**
 * CPU of the objects a run builds once per run and per task: its `RunEnd`
 * (`RunState.end`), a task's start and finish in the task tracker, and the run's result
 * (`runResultOf`). Not part of the run; wall time of a loop of 100,000 after two warm-up
 * loops (docs/performance.md, stop 42: a spread copy with fields added took V8's slow path):
 *
 * ```sh
 * node --import tsx bench/support/run-objects-cpu.ts [distDir]
 * ```
 *
 * `distDir` (default `dist`) is where the modules are loaded from, to compare two builds.
 *
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.argv[2] ?? 'dist';
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(dist, path)).href)) as T;
const { RunState } = await load<typeof import('../../src/agent/run-state.js')>('agent/run-state.js');
const { TaskTracker } = await load<typeof import('../../src/delegation/task-tracker.js')>('delegation/task-tracker.js');

const N = 100_000;

/** Microseconds per call of `f` in the last of three loops of `N`. */
function time(f: (i: number) => unknown): number {
  let elapsed = 0;
  for (let pass = 0; pass < 3; pass++) {
    const started = performance.now();
    for (let i = 0; i < N; i++) f(i);
    elapsed = performance.now() - started;
  }
  return (elapsed * 1000) / N;
}

const states = Array.from({ length: N }, (_, i) => new RunState('general', `s${i}`, `run_${i}`));
const end = time((i) => {
  states[i]!.ended = false;
  return states[i]!.end();
});
const tracker = new TaskTracker({ retainFinished: 100 });
let next = 0;
const metrics = { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 1, tasks: 0 };
const task = time(() => {
  const taskId = `t${next++}`;
  tracker.start({ taskId, agentName: 'general', description: 'a part', sessionId: 's0', parentRunId: 'run_0', background: false }, () => undefined);
  tracker.finish(taskId, 'done', 'the answer', metrics);
});
console.log(`${dist}: RunEnd ${end.toFixed(3)} µs; a task's start and finish ${task.toFixed(3)} µs`);
