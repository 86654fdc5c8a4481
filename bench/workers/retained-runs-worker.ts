/**
 * The retained-runs benchmark's worker, in a fresh process run with `--expose-gc`: started
 * runs (`engine.start`, each delegating three tasks) one after the other, kept for replay up
 * to `maxRetainedRuns`. Conversations go to a store that keeps nothing, so what grows is the
 * registry and the event log. After a warm-up past every bounded cache, the heap is measured
 * after a forced full GC every 250 runs.
 *
 * @module
 */
import type { ChatMessage, SessionStore } from '../../src/index.js';
import { rx } from '../support/rxharness.js';
import { makeTempDirs } from '../support/temp-dirs.js';

const WARMUP = 1_500;
const RUNS = 1_000;
const SAMPLE_EVERY = 250;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('retained-runs-worker needs node --expose-gc');
const { maxRetainedRuns } = JSON.parse(process.argv[2] ?? '{}') as { maxRetainedRuns: number };

const forgetful: SessionStore = { load: (): ChatMessage[] => [], append: () => undefined };
const dirs = await makeTempDirs();
const tasks = [1, 2, 3].map((index) => ({ index, agent_name: 'child', prompt: 'look around', description: `part ${index}` }));
const model = new rx.ScriptedModel((request) => {
  if (request.sender?.agentName === 'child') return { text: 'A child answer of a few words, streamed in chunks.', chunkSize: 8 };
  return request.messages.some((m) => m.role === 'tool') ? { text: 'All three parts are done.', chunkSize: 8 } : { toolCalls: [{ name: 'multitask', args: { tasks } }] };
});
const engine = new rx.HarnessEngine({ model, workspace: dirs.workspace, homeDir: dirs.home, sessions: forgetful, maxRetainedRuns, runRetentionMs: 3_600_000 });
engine.agents.add(rx.defineAgent({ name: 'child', description: 'A scripted child.', systemPrompt: 'You are a child.' }));

async function oneRun(): Promise<string> {
  const run = engine.start('delegate');
  const result = await run.result;
  if (result.abnormal) throw new Error(`retained-runs: a run failed: ${result.error}`);
  model.requests.length = 0; // the ScriptedModel's own log of requests, not the harness's memory
  return run.runId;
}

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

let last = '';
for (let i = 0; i < WARMUP; i++) last = await oneRun();
let eventsPerRun = 0;
// With nothing retained the last run is already gone: there is nothing to count.
if (maxRetainedRuns > 0) engine.runs.attach(last).subscribe(() => (eventsPerRun += 1));
const samples: { runs: number; heapUsed: number }[] = [{ runs: 0, heapUsed: heapAfterGc() }];
for (let done = 0; done < RUNS; ) {
  for (let i = 0; i < SAMPLE_EVERY; i++) await oneRun();
  done += SAMPLE_EVERY;
  samples.push({ runs: done, heapUsed: heapAfterGc() });
}
process.stdout.write(`${JSON.stringify({ eventsPerRun, samples })}\n`);
await engine.close();
await dirs.remove();
