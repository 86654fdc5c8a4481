/**
 * What a live run tree holds, measured at one exact moment, in one process (issue 28, the run
 * tree's memory). Not part of the run:
 *
 * ```sh
 * npm run build && node --expose-gc --import tsx bench/support/run-tree-heap.ts [runs]
 * node --import tsx bench/support/heap-summary.ts <idle> <peak> <runs>
 * ```
 *
 * `heap-at-peak.ts` snapshots `serve` a fixed time after the load started, so the runs are
 * caught in whatever phase the machine's load left them (two measurements of the same build
 * differ by half). Here the fake model holds every child's answer open after its first delta:
 * the snapshot is taken when each of the `runs` (default 200) main agents waits in its
 * `multitask` call and both its children are streaming, whatever the load, as in the serve
 * bench's peak. Each run is started with `engine.start()` and followed by a reader (as the
 * page follows a run). Prints the heap used per run (after a full GC) and the two snapshots'
 * paths for `heap-summary.ts`, which charges the new objects to parts and kinds.
 *
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import * as rx from '../../dist/index.js';

const RUNS = Number(process.argv[2] ?? 200);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'held', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const DONE = 'data: [DONE]\n\n';

/** The children's answers held open, and whether a new one is still held or answered at once. */
const held: ServerResponse[] = [];
let holding = false;
const release = (res: ServerResponse): void => void res.end(chunk({ content: ' done' }) + chunk({}, 'stop') + DONE);

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (part: Buffer) => (raw += String(part)));
  req.on('end', () => {
    // Only chat requests are answered (a context-window lookup finds nothing here).
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const body = JSON.parse(raw) as { messages?: { role: string }[]; tools?: { function?: { name?: string } }[] };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const offersMultitask = (body.tools ?? []).some((t) => t.function?.name === 'multitask');
    const hasResult = (body.messages ?? []).some((m) => m.role === 'tool');
    if (offersMultitask && !hasResult) {
      const args = JSON.stringify({ tasks: [1, 2].map((index) => ({ index, agent_name: 'general', prompt: `part ${index}`, description: `Part ${index}` })) });
      res.end(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_mt', type: 'function', function: { name: 'multitask', arguments: args } }] }) + chunk({}, 'tool_calls') + DONE);
      return;
    }
    res.write(chunk({ role: 'assistant', content: 'a first piece of the answer' }));
    if (holding) held.push(res);
    else release(res);
  });
});
server.maxConnections = 100_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as { port: number };

const dir = mkdtempSync(join(tmpdir(), 'rxharness-tree-heap-'));
const engine = new rx.HarnessEngine({
  model: new rx.OpenAIChatModel({ model: 'held', client: new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'bench', maxRetries: 0 }) }),
  workspace: dir,
  homeDir: dir,
  multitaskMaxTasks: 0,
  maxRetainedRuns: 0, // the warm-up's finished runs are not kept
});

/** Starts `n` runs, each followed by a reader; resolves with the readers' events counts when all ended. */
function start(n: number): { done: Promise<number[]> } {
  const runs = Array.from({ length: n }, (_, i) => {
    const handle = engine.start(`question ${i}`);
    let events = 0;
    const read = new Promise<number>((resolve) => handle.events$.subscribe({ next: () => void events++, complete: () => resolve(events), error: () => resolve(events) }));
    return Promise.all([handle.result, read]).then(([, count]) => count);
  });
  return { done: Promise.all(runs) };
}

const settle = async (): Promise<number> => {
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(50);
  }
  return process.memoryUsage().heapUsed;
};

await start(10).done; // warm-up: code compiled, shared specs and definitions made
const before = await settle();
const idle = writeHeapSnapshot(join(dir, 'idle.heapsnapshot'));
holding = true;
const load = start(RUNS);
while (held.length < 2 * RUNS) await sleep(50);
await sleep(300); // every child's first delta delivered to its reader
const during = await settle();
const peak = writeHeapSnapshot(join(dir, 'peak.heapsnapshot'));
holding = false;
held.splice(0).forEach(release);
const counts = await load.done;
process.stdout.write(`${JSON.stringify({ runs: RUNS, heapPerRunKiB: Math.round(((during - before) / RUNS / 1024) * 10) / 10, eventsPerRun: counts[0], idle, peak })}\n`);
await engine.close();
server.close();
