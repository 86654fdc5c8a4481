/**
 * What one live model request holds in the client's heap, by transport: `fetch` (a client of
 * your own, undici and web streams) or `node-http` (rxharness's own client,
 * src/model/node-http-fetch.ts). Not part of the run; counted, not timed (the machine is shared):
 *
 * ```sh
 * node --expose-gc --import tsx bench/support/model-request-heap.ts fetch [requests]
 * node --expose-gc --import tsx bench/support/model-request-heap.ts node-http [requests]
 * ```
 *
 * A server in a child process answers each request with one SSE delta and keeps the stream
 * open. The bench opens `requests` (default 500) streams at once, each with a 7 KiB system
 * prompt (a child agent's request here), waits for every first delta, collects the garbage,
 * and prints the heap (and the external buffers) above the level before, per request.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import OpenAI from 'openai';
import type { Subscription } from 'rxjs';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';

const side = process.argv[2];
const REQUESTS = Number(process.argv[3] ?? 500);
if (side !== 'fetch' && side !== 'node-http') throw new Error('usage: model-request-heap.ts fetch|node-http [requests]');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const SERVER = `
const http = require('node:http');
const delta = 'data: ' + JSON.stringify({ choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] }) + '\\n\\n';
http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.write(delta); }); })
  .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const [port] = (await once(server.stdout!, 'data')) as [Buffer];
const baseURL = `http://127.0.0.1:${String(port).trim()}/v1`;

const model =
  side === 'fetch'
    ? new OpenAIChatModel({ model: 'm', client: new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 }) })
    : new OpenAIChatModel({ model: 'm', baseURL, apiKey: 'k', maxRetries: 0 });
const request = { messages: [{ role: 'system' as const, content: 'You are a careful agent. '.repeat(300) }, { role: 'user' as const, content: 'go' }] };

/** Opens `count` streams and resolves with their subscriptions once each has its first delta. */
async function open(count: number): Promise<Subscription[]> {
  let started = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const subscriptions = Array.from({ length: count }, () =>
    model.stream(request).subscribe({ next: (chunk) => chunk.type === 'text-delta' && ++started === count && done(), error: (e: unknown) => console.error(e) }),
  );
  await all;
  return subscriptions;
}

const settle = async (): Promise<NodeJS.MemoryUsage> => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage();
};

for (const s of await open(20)) s.unsubscribe(); // warm-up: code, shapes, the agent's first sockets
const before = await settle();
const live = await open(REQUESTS);
const during = await settle();
for (const s of live) s.unsubscribe();
const kib = (bytes: number): string => (bytes / REQUESTS / 1024).toFixed(1);
process.stdout.write(
  `${JSON.stringify({ side, requests: REQUESTS, heapKiBPerRequest: kib(during.heapUsed - before.heapUsed), externalKiBPerRequest: kib(during.external - before.external), rssKiBPerRequest: kib(during.rss - before.rss) })}\n`,
);
server.kill();
process.exit(0);
