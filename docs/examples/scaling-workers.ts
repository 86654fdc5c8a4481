import { spawn } from 'node:child_process';
import { HarnessEngine, HarnessWorker, ScriptedModel, redisBackend } from 'rxharness';

// A throwaway redis-server on port 6390 for this example (set REDIS_URL to use your own).
const server = process.env.REDIS_URL ? undefined : spawn('redis-server', ['--port', '6390', '--save', '', '--appendonly', 'no']);
if (server) await new Promise((ready) => server.stdout!.on('data', (out: Buffer) => out.includes('Ready to accept') && ready(undefined)));
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6390';

// One model for the engine and the worker: the main agent fans out two tasks, each child answers.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') return { text: `Looked at ${String(last.content)}`, delayMs: String(last.content) === 'src/' ? 20 : 80 };
  if (last.role === 'tool') return { text: 'Survey complete.' };
  const tasks = ['src', 'docs'].map((dir, i) => ({ index: i + 1, agent_name: 'explore', prompt: `${dir}/`, description: `survey ${dir}` }));
  return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
});

// A worker (normally a process of its own: `rxharness worker --redis URL`), with its own connections.
const workerBackend = await redisBackend({ url, prefix: 'example' });
const worker = new HarnessWorker({ model, backend: workerBackend, concurrency: 4 });
await worker.ready;

// An app instance: distributeTasks sends foreground tasks to the workers too.
const backend = await redisBackend({ url, prefix: 'example' });
const engine = new HarnessEngine({ model, backend, distributeTasks: true });
const run = engine.start('Survey the project');
// Its events come from the run's event log (a Redis stream), wrapped children included.
await new Promise((done) =>
  run.events$.subscribe({
    next: ({ seq, event }) => {
      if (event.type === 'TaskWrap' && event.event.type === 'RunEnd') console.log(`#${seq} task ${event.taskIndex}: ${event.event.text}`);
    },
    complete: () => done(undefined),
  }),
);
console.log(`main: ${(await run.result).text}`);

// Any engine on the backend can read the run, here or in another process.
console.log(`run state seen through the backend: ${engine.runs.get(run.runId)?.state}`);

await engine.close();
await worker.close();
await backend.close();
await workerBackend.close();
server?.kill();
