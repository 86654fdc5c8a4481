/**
 * The memory benchmark's worker, in a fresh process run with `--expose-gc`: what one more
 * idle session, retained run or queued task keeps on the heap, array buffers included
 * (measured after a forced full GC, the difference between two counts divided by the
 * difference of the counts). The model
 * is a `ScriptedModel` (its own log of requests is cleared, it is not the harness's memory).
 *
 * - idle session: `engine.call(prompt, { sessionId })` on a new session each time, on the
 *   default `MemorySessionStore`: the conversation kept (prompt and a 10-chunk answer) and
 *   whatever else the engine keeps for a session that is not running.
 * - retained run: `engine.start()` of the same small run, to its end, on a store that keeps
 *   no conversation, with room for every run in the registry: the run's entry and its
 *   event log (14 events), kept for replay.
 * - long retained run: the same with an answer of 24,000 deltas (the size of the overhead
 *   scenario's run): what a log keeps per delta.
 * - queued task: one `multitask` call with many tasks and a pool of 1, the first child
 *   stuck on a reply that never comes: every other task waits in the pool's queue. Its share
 *   of the call's arguments (the model's tool call, parsed) is counted with it.
 *
 * @module
 */
import { lastValueFrom } from 'rxjs';
import type { ChatMessage, SessionStore } from '../../src/index.js';
import { rx } from '../support/rxharness.js';
import { makeTempDirs, type TempDirs } from '../support/temp-dirs.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-worker needs node --expose-gc');
const { sessions: SESSIONS = 5_000, runs: RUNS = 2_000, tasks: TASKS = 5_000 } = JSON.parse(process.argv[2] ?? '{}') as { sessions?: number; runs?: number; tasks?: number };
const ANSWER = { text: 'An answer of a few words, streamed in ten chunks, as a small reply would be.', chunkSize: 8 };

function heapAfterGc(): number {
  gc!();
  gc!();
  // Array buffers too: an event log keeps its deltas' positions in typed arrays, outside the JS heap.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Bytes per unit: the heap after `n` units minus the heap after `m` units, over `n - m`. */
async function perUnit(m: number, n: number, add: (count: number) => Promise<void>): Promise<number> {
  await add(m);
  const before = heapAfterGc();
  await add(n - m);
  return (heapAfterGc() - before) / (n - m);
}

async function idleSession(dirs: TempDirs): Promise<number> {
  const model = new rx.ScriptedModel(() => ANSWER);
  const engine = new rx.HarnessEngine({ model, workspace: dirs.workspace, homeDir: dirs.home });
  let next = 0;
  return perUnit(200, 200 + SESSIONS, async (count) => {
    for (let i = 0; i < count; i++) {
      const result = await engine.call('hello there', { sessionId: `session-${next++}` });
      if (result.abnormal) throw new Error(`memory: a call failed: ${result.error}`);
      model.requests.length = 0;
    }
  });
}

/** The long run's answer: 24,000 deltas of 16 characters. */
const LONG_ANSWER = { text: 'sixteen chars ok'.repeat(24_000), chunkSize: 16 };

async function retainedRun(dirs: TempDirs, answer: typeof ANSWER, warm: number, runs: number): Promise<{ bytes: number; events: number }> {
  const forgetful: SessionStore = { load: (): ChatMessage[] => [], append: () => undefined };
  const model = new rx.ScriptedModel(() => answer);
  const engine = new rx.HarnessEngine({ model, workspace: dirs.workspace, homeDir: dirs.home, sessions: forgetful, maxRetainedRuns: 1_000_000, runRetentionMs: 3_600_000 });
  let events = 0;
  const bytes = await perUnit(warm, warm + runs, async (count) => {
    for (let i = 0; i < count; i++) {
      const run = engine.start('hello there');
      const result = await run.result;
      if (result.abnormal) throw new Error(`memory: a started run failed: ${result.error}`);
      model.requests.length = 0;
      events = (await lastValueFrom(run.events$)).seq;
    }
  });
  await engine.close();
  return { bytes, events };
}

/** The heap while `tasks` tasks are delegated in one multitask call and all but one wait. */
async function queued(dirs: TempDirs, tasks: number): Promise<number> {
  const list = Array.from({ length: tasks }, (_, i) => ({ index: i + 1, agent_name: 'child', prompt: `part ${i + 1}`, description: `part ${i + 1}` }));
  const model = new rx.ScriptedModel((request) => {
    if (request.sender?.agentName === 'child') return { text: 'never', delayMs: 3_600_000 };
    return { toolCalls: [{ name: 'multitask', args: { tasks: list } }] };
  });
  const engine = new rx.HarnessEngine({ model, workspace: dirs.workspace, homeDir: dirs.home, multitaskMaxTasks: 1, multitaskMaxItems: 1_000_000 });
  engine.agents.add(rx.defineAgent({ name: 'child', description: 'A scripted child.', systemPrompt: 'You are a child.' }));
  let started!: () => void;
  const firstChild = new Promise<void>((resolve) => (started = resolve));
  // Subscribed until the heap is measured: the run (and its queue) lives as long as this.
  const subscription = engine.stream('delegate').subscribe((e) => {
    if (e.type === 'TaskWrap' && e.event.type === 'ReasonStart') started();
  });
  await firstChild;
  const heap = heapAfterGc();
  subscription.unsubscribe();
  await engine.close();
  return heap;
}

async function queuedTask(dirs: TempDirs): Promise<number> {
  await queued(dirs, 50); // warm-up
  const few = await queued(dirs, 50);
  const many = await queued(dirs, 50 + TASKS);
  return (many - few) / TASKS;
}

const dirs = await makeTempDirs();
try {
  const session = await idleSession(dirs);
  const run = await retainedRun(dirs, ANSWER, 200, RUNS);
  const long = await retainedRun(dirs, LONG_ANSWER, 3, 20);
  const task = await queuedTask(dirs);
  process.stdout.write(`${JSON.stringify({ sessionBytes: session, retainedRunBytes: run.bytes, eventsPerRetainedRun: run.events, longRunBytes: long.bytes, eventsPerLongRun: long.events, queuedTaskBytes: task, counts: { sessions: SESSIONS, runs: RUNS, tasks: TASKS } })}\n`);
} finally {
  await dirs.remove();
}
