/**
 * The scale benchmark's worker, in a fresh process run with `--expose-gc`: 10,000 tasks
 * delegated through one engine (runs of one 100-task `multitask` on a `ScriptedModel`, no
 * network), streamed and drained. After a warm-up, the heap is measured after a forced
 * full GC every 1,000 tasks. With `store: 'dropping'` the session store forgets a task's
 * session once the task has finished, and each run's main session after the run.
 *
 * @module
 */
import { count, lastValueFrom } from 'rxjs';
import { rx } from '../support/rxharness.js';
import { scriptedEngine } from '../support/scripted-delegation.js';
import { makeTempDirs } from '../support/temp-dirs.js';

const TASKS_PER_RUN = 100;
const WARMUP_TASKS = 5_000; // past the task tracker's 1,000 retained finished tasks, and JIT settling
const TASKS = 10_000;
const SAMPLE_EVERY = 1_000;

const { store } = JSON.parse(process.argv[2] ?? '{}') as { store?: 'memory' | 'dropping' };
if (store !== 'memory' && store !== 'dropping') throw new Error('usage: scale-worker.ts \'{"store":"memory"|"dropping"}\'');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('scale-worker needs node --expose-gc');

const dirs = await makeTempDirs();
const sessions = new rx.MemorySessionStore();
const { engine, model } = await scriptedEngine({ tasks: TASKS_PER_RUN, pool: 10, child: { text: 'done' }, sessions }, dirs);
if (store === 'dropping') {
  engine.tasks.changes.subscribe((task) => {
    if (task.state !== 'running') sessions.delete(task.taskId);
  });
}

let run = 0;
async function oneRun(): Promise<void> {
  const sessionId = `scale-${run++}`;
  const events = await lastValueFrom(engine.stream('delegate', { sessionId }).pipe(count()));
  if (events < TASKS_PER_RUN) throw new Error(`scale: a run produced only ${events} events`);
  if (store === 'dropping') sessions.delete(sessionId);
  // ScriptedModel keeps every request it saw (a test double's log): not the harness's memory.
  model.requests.length = 0;
}

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

for (let done = 0; done < WARMUP_TASKS; done += TASKS_PER_RUN) await oneRun();
const samples: { tasks: number; heapUsed: number }[] = [{ tasks: 0, heapUsed: heapAfterGc() }];
let busyMs = 0;
for (let done = 0; done < TASKS; ) {
  const start = performance.now();
  for (let i = 0; i < SAMPLE_EVERY; i += TASKS_PER_RUN) await oneRun();
  busyMs += performance.now() - start;
  done += SAMPLE_EVERY;
  samples.push({ tasks: done, heapUsed: heapAfterGc() });
}
process.stdout.write(`${JSON.stringify({ store, tasks: TASKS, busyMs, samples, sessionsHeld: sessions.size, tasksTracked: engine.tasks.list().length })}\n`);
await dirs.remove();
