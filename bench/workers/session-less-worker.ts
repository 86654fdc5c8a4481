/**
 * The session-less benchmark's worker, in a fresh process run with `--expose-gc`:
 * `engine.call()` without a `sessionId`, many times, on the default stores (each run
 * delegates one task, so task sessions and the task tracker are exercised too). After a
 * warm-up past every bounded cache (1,000 task sessions, 1,000 finished tasks), the heap is
 * measured after a forced full GC every tenth of the runs (`runs`, default 100,000).
 *
 * @module
 */
import { rx } from '../support/rxharness.js';
import { scriptedEngine } from '../support/scripted-delegation.js';
import { makeTempDirs } from '../support/temp-dirs.js';

const { runs: RUNS = 100_000 } = JSON.parse(process.argv[2] ?? '{}') as { runs?: number };
const WARMUP = 4_000;
const SAMPLE_EVERY = RUNS / 10;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('session-less-worker needs node --expose-gc');

const dirs = await makeTempDirs();
const { engine, model } = await scriptedEngine({ tasks: 1, child: { text: 'done' } }, dirs);

async function oneRun(): Promise<void> {
  const result = await engine.call('delegate');
  if (result.abnormal) throw new Error(`session-less: a run failed: ${result.error}`);
  model.requests.length = 0; // the ScriptedModel's own log of requests, not the harness's memory
}

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

for (let i = 0; i < WARMUP; i++) await oneRun();
const samples: { runs: number; heapUsed: number }[] = [{ runs: 0, heapUsed: heapAfterGc() }];
const started = performance.now();
for (let done = 0; done < RUNS; ) {
  for (let i = 0; i < SAMPLE_EVERY; i++) await oneRun();
  done += SAMPLE_EVERY;
  samples.push({ runs: done, heapUsed: heapAfterGc() });
}
const busyMs = performance.now() - started;
const sessions = engine.sessions as InstanceType<typeof rx.MemorySessionStore>;
process.stdout.write(`${JSON.stringify({ runs: RUNS, busyMs, samples, sessionsHeld: sessions.size, tasksTracked: engine.tasks.list().length })}\n`);
await dirs.remove();
