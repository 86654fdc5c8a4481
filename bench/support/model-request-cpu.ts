/**
 * The client's CPU per model request and per streamed delta: `OpenAIChatModel` built from a
 * `baseURL` (the `node:http` transport `serve` uses) against a bare loop doing the same
 * requests with `node:http` and a minimal SSE parse. Not part of the run; counted, not timed
 * against the wall (the machine is shared): CPU is `process.cpuUsage()` of this process only.
 *
 * ```sh
 * node --import tsx bench/support/model-request-cpu.ts model [distDir] [requests]
 * node --import tsx bench/support/model-request-cpu.ts bare
 * node --import tsx bench/support/model-request-cpu.ts alloc [distDir|bare]   # sampled allocations
 * ```
 *
 * `distDir` (default `dist`) is where `OpenAIChatModel` is loaded from, so that a copy of an
 * older build can be compared with a newer one on the same flags (copy it as `<dir>/dist`
 * beside a copy of package.json and a `node_modules` link to the project's). A fake server in a child
 * process (its CPU is not ours) answers every request with 60 content deltas, a finish and
 * usage in one write (unpaced). `requests` (default 2,000) go 100 at a time; two warm-up
 * passes, then 5 measured passes: the median CPU per request and per delta, and the young
 * collections (scavenges) per request. `alloc` runs the passes under the sampling heap
 * profiler and prints the sampled bytes per request and the frames that allocate most.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { ChatRequest } from '../../src/model/chat-model.js';

const [mode = 'model', distDir = 'dist', requestsArg] = process.argv.slice(2);
if (mode !== 'model' && mode !== 'bare' && mode !== 'alloc') throw new Error('usage: model-request-cpu.ts model|bare|alloc [distDir] [requests]');
const REQUESTS = Number(requestsArg ?? 2_000);
const CONCURRENCY = 100;
const DELTAS = 60;
const REPS = 5;

const SERVER = `
const http = require('node:http');
const chunk = (delta, finish) => 'data: ' + JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) + '\\n\\n';
let answer = chunk({ role: 'assistant', content: '' }, null);
for (let i = 0; i < ${DELTAS}; i++) answer += chunk({ content: ' word' + i }, null);
answer += chunk({}, 'stop') + 'data: ' + JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 900, completion_tokens: ${DELTAS}, total_tokens: ${900 + DELTAS} } }) + '\\n\\ndata: [DONE]\\n\\n';
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end(answer); }); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)).resume();`;

/** A main agent's request after a delegation: a system prompt, two tools, a tool call and its result. */
const REQUEST: ChatRequest = {
  messages: [
    { role: 'system' as const, content: 'You are a careful agent. '.repeat(120) },
    { role: 'user' as const, content: 'Survey the project and report.' },
    { role: 'assistant' as const, content: '', tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'task', arguments: '{"agent_name":"general","prompt":"Part 1"}' } }] },
    { role: 'tool' as const, tool_call_id: 'call_1', content: 'Part one is fine. '.repeat(20) },
  ],
  tools: [
    { name: 'task', description: 'Delegate a task to a subagent.', parameters: { type: 'object', properties: { agent_name: { type: 'string' }, prompt: { type: 'string' } }, required: ['agent_name', 'prompt'] } },
    { name: 'read_file', description: 'Read a file of the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  ],
};

const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
const [port] = (await once(server.stdout!, 'data')) as [Buffer];
const baseURL = `http://127.0.0.1:${String(port).trim()}/v1`;

/** One request to its end, the way the side under test does it; resolves with the deltas read. */
type Send = () => Promise<number>;

async function modelSend(): Promise<Send> {
  const url = pathToFileURL(resolve(distDir, 'model/openai-chat-model.js')).href;
  const { OpenAIChatModel } = (await import(url)) as typeof import('../../src/model/openai-chat-model.js');
  const model = new OpenAIChatModel({ model: 'm', baseURL, apiKey: 'bench', maxRetries: 0 });
  return () =>
    new Promise<number>((done, fail) => {
      let deltas = 0;
      model.stream(REQUEST).subscribe({ next: (c) => void (c.type === 'text-delta' && deltas++), error: fail, complete: () => done(deltas) });
    });
}

/** The limit: node:http with a kept-alive agent, the body serialised, one linear pass over the SSE lines. */
function bareSend(): Send {
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 256 });
  const target = new URL(`${baseURL}/chat/completions`);
  const wire = { ...REQUEST, tools: (REQUEST.tools ?? []).map((t) => ({ type: 'function', function: t })) };
  return () =>
    new Promise<number>((done, fail) => {
      const body = JSON.stringify({ model: 'm', messages: wire.messages, stream: true, stream_options: { include_usage: true }, tools: wire.tools });
      const headers = { 'content-type': 'application/json', authorization: 'Bearer bench', 'content-length': String(Buffer.byteLength(body)) };
      const req = http.request(target, { method: 'POST', headers, agent }, (res) => {
        const decoder = new TextDecoder();
        let rest = '';
        let deltas = 0;
        res.on('data', (bytes: Buffer) => {
          const text = rest + decoder.decode(bytes, { stream: true });
          let start = 0;
          for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
            if (text.startsWith('data: ', start) && !text.startsWith('data: [DONE]', start)) {
              const chunk = JSON.parse(text.slice(start + 6, end)) as { choices?: { delta?: { content?: string } }[] };
              if (chunk.choices?.[0]?.delta?.content) deltas++;
            }
            start = end + 1;
          }
          rest = text.slice(start);
        });
        res.on('end', () => done(deltas));
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end(body);
    });
}

/** `count` requests, `CONCURRENCY` at a time; the deltas read in all. */
async function pass(send: Send, count: number): Promise<number> {
  let next = 0;
  let deltas = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const read = await send(); // (not `deltas += await ...`: that would add to the total read before the await)
      deltas += read;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
  return deltas;
}

let scavenges = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === 1) scavenges++; // kind 1: a scavenge (minor GC)
}).observe({ entryTypes: ['gc'] });

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const send = mode === 'bare' || (mode === 'alloc' && distDir === 'bare') ? bareSend() : await modelSend();
for (let warm = 0; warm < 2; warm++) await pass(send, REQUESTS); // warm-up: sockets open, code optimised

if (mode === 'alloc') {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await pass(send, REQUESTS);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const byFrame = new Map<string, number>();
  const bySide = new Map<string, number>();
  let total = 0;
  const walk = (node: typeof profile.head): void => {
    const self = node.selfSize;
    total += self;
    if (self > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/(dist|src)\//, '$1/')}:${lineNumber + 1}`;
      byFrame.set(key, (byFrame.get(key) ?? 0) + self);
      const side = /node_modules\/openai\//.test(url) ? 'openai' : /node_modules\/rxjs\//.test(url) ? 'rxjs' : /\/bench\//.test(url) ? 'bench' : url.startsWith('file:') && !url.includes('node_modules') ? 'rxharness' : 'Node (and builtins)';
      bySide.set(side, (bySide.get(side) ?? 0) + self);
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  console.log(`${mode} ${distDir}: ~${Math.round(total / REQUESTS)} bytes allocated per request (sampled every 512 B)`);
  console.log([...bySide].sort((a, b) => b[1] - a[1]).map(([side, bytes]) => `${side} ${Math.round(bytes / REQUESTS)} B`).join(', '));
  for (const [frame, bytes] of [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25))) console.log(`${String(Math.round(bytes / REQUESTS)).padStart(7)} B/req  ${frame}`);
} else {
  const cpu: number[] = [];
  const gcs: number[] = [];
  let deltas = 0;
  for (let rep = 0; rep < REPS; rep++) {
    const before = process.cpuUsage();
    const gcBefore = scavenges;
    deltas = await pass(send, REQUESTS);
    const used = process.cpuUsage(before);
    cpu.push(used.user + used.system);
    await new Promise((r) => setTimeout(r, 10)); // let the gc observer report
    gcs.push(scavenges - gcBefore);
  }
  const perRequest = median(cpu) / REQUESTS;
  console.log(
    `${mode}${mode === 'model' ? ` ${distDir}` : ''}: ${perRequest.toFixed(1)} µs CPU/request, ${(perRequest / (deltas / REQUESTS)).toFixed(2)} µs/delta, ` +
      `${(median(gcs) / REQUESTS * 1000).toFixed(1)} scavenges/1000 requests (median of ${REPS} passes of ${REQUESTS}, ${CONCURRENCY} at a time; CPU of each pass: ${cpu.map((c) => Math.round(c / 1000)).join(', ')} ms)`,
  );
}
server.stdin!.end();
process.exit(0);
