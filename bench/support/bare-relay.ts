/**
 * The baseline of the serve-load benchmark, in its own process: a bare Node server relaying
 * the same model traffic as `rxharness serve` does for one delegating run (the main
 * request, two child streams at once, the main's answer), each content chunk forwarded as one
 * server-sent event, with the routes the load clients use (`POST /api/runs`,
 * `GET /api/runs/:id/events`). No harness: what any relay must pay.
 *
 * ```sh
 * node --import tsx bench/support/bare-relay.ts <model baseURL>
 * ```
 *
 * Prints one line `{"url": ...}`; ends when stdin closes.
 *
 * `RXHARNESS_LOAD_RELAY_REQUEST_TURNS=1` has it start its model requests through serve's own
 * request turns (`requestTurn`, `src/model/request-turns.ts`: a few a turn of the event loop),
 * not all at once: the streams then come spread over time as serve's do, and the relay keeps
 * up (docs/performance.md §11, "Stop 36"). Off by default: the baseline of the targets starts
 * every request at once.
 *
 * `RXHARNESS_LOAD_RELAY_CLIENT=openai` has it make its model requests through the `openai`
 * package (`chat.completions.create({ stream: true })` over serve's own transport,
 * `nodeHttpFetch`), as any harness built on that package must, instead of a bare
 * `http.request`: what the client alone costs a relay in memory and CPU (docs/performance.md
 * §11, "Stop 39"). `=openai-response` makes the same requests through the client but reads
 * each response's Node stream under it, as `serve` does (`asResponse()`, `nodeBodyOf`), with
 * the bare relay's own parsing: what the client's request alone costs. Off by default.
 *
 * @module
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import type { Readable } from 'node:stream';
import { nodeHttpFetch } from '../../src/model/node-http-fetch.js';
import { nodeBodyOf } from '../../src/model/node-http-response.js';
import { requestTurn } from '../../src/model/request-turns.js';

const baseURL = process.argv[2] ?? '';
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

interface Run {
  readonly frames: string[];
  follower?: http.ServerResponse;
  ended: boolean;
}
const runs = new Map<string, Run>();

const TURNS = process.env['RXHARNESS_LOAD_RELAY_REQUEST_TURNS'] ?? '0';
if (TURNS !== '0' && TURNS !== '1') throw new Error(`RXHARNESS_LOAD_RELAY_REQUEST_TURNS is 0 or 1 (got ${JSON.stringify(TURNS)})`);
const turn = TURNS === '1' ? requestTurn : (): Promise<void> => Promise.resolve();
const CLIENT = process.env['RXHARNESS_LOAD_RELAY_CLIENT'] ?? 'http';
if (CLIENT !== 'http' && CLIENT !== 'openai' && CLIENT !== 'openai-response') {
  throw new Error(`RXHARNESS_LOAD_RELAY_CLIENT is http, openai or openai-response (got ${JSON.stringify(CLIENT)})`);
}
const openai = CLIENT !== 'http' ? new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0, fetch: nodeHttpFetch }) : undefined;

function emit(runId: string, run: Run, event: object): void {
  const frame = `id: ${run.frames.length + 1}\ndata: ${JSON.stringify({ runId, seq: run.frames.length + 1, event })}\n\n`;
  run.frames.push(frame);
  run.follower?.write(frame);
}

/** Streams one model request over a bare `http.request`, calling `onText` per content delta; resolves at its end. */
function overHttp(body: object, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseURL}/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      relayLines(res, onText).then(resolve, reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'paced', stream: true, ...body }));
  });
}

/** How a model request is made: by the client `RXHARNESS_LOAD_RELAY_CLIENT` names, chosen once. */
const send: (body: object, onText: (text: string) => void) => Promise<void> =
  openai === undefined ? overHttp
  : CLIENT === 'openai' ? (body, onText) => streamThroughOpenAI(openai, body, onText)
  : async (body, onText) => relayLines(await openAIResponse(openai, body), onText);

/** Streams one model request in its turn, calling `onText` per content delta; resolves at its end. */
async function stream(body: object, onText: (text: string) => void): Promise<void> {
  await turn();
  return send(body, onText);
}

/** Reads an SSE body of chunks, calling `onText` per content delta; resolves at its end. */
function relayLines(res: Readable, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (piece: string) => {
      buffer += piece;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const line = buffer.slice(6, end);
        buffer = buffer.slice(end + 2);
        if (line === '[DONE]') continue;
        const content = (JSON.parse(line) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content;
        if (content) onText(content);
      }
    });
    res.on('end', () => resolve()).on('error', reject);
  });
}

const paramsOf = (body: object): OpenAI.ChatCompletionCreateParamsStreaming => ({ model: 'paced', stream: true, ...body }) as OpenAI.ChatCompletionCreateParamsStreaming;

/** {@link stream} through the `openai` client: its request building, its SSE reader, its chunk objects. */
async function streamThroughOpenAI(client: OpenAI, body: object, onText: (text: string) => void): Promise<void> {
  for await (const chunk of await client.chat.completions.create(paramsOf(body))) {
    const content = chunk.choices[0]?.delta?.content;
    if (content) onText(content);
  }
}

/** The request through the `openai` client, its body read as the Node stream under it (as `serve` reads it). */
async function openAIResponse(client: OpenAI, body: object): Promise<Readable> {
  const response = await client.chat.completions.create(paramsOf(body)).asResponse();
  const node = nodeBodyOf(response);
  if (!node) throw new Error('the openai client did not answer through nodeHttpFetch');
  return node.stream;
}

async function play(runId: string, run: Run): Promise<void> {
  const user = { role: 'user', content: 'Split this in two parts and report.' };
  await stream({ messages: [user], tools: [{ type: 'function', function: { name: 'multitask', parameters: {} } }] }, () => {});
  await Promise.all(
    [1, 2].map((index) =>
      stream({ messages: [{ role: 'user', content: `part ${index}` }] }, (text) =>
        emit(runId, run, { type: 'TaskWrap', taskId: `t${index}`, event: { type: 'ReasonDelta', runId: `c${index}`, text } }),
      ),
    ),
  );
  await stream({ messages: [user, { role: 'tool', content: 'done' }] }, (text) => emit(runId, run, { type: 'ReasonDelta', runId, text }));
  run.ended = true;
  run.follower?.end('event: end\ndata: {}\n\n');
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  if (req.method === 'POST' && url === '/api/runs') {
    req.resume().on('end', () => {
      const runId = `run_${randomUUID()}`;
      const run: Run = { frames: [], ended: false };
      runs.set(runId, run);
      play(runId, run).catch(() => run.follower?.destroy());
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ runId }));
    });
    return;
  }
  const match = /^\/api\/runs\/([^/]+)\/events$/.exec(url);
  const run = match ? runs.get(match[1]!) : undefined;
  if (!run) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  for (const frame of run.frames) res.write(frame);
  if (run.ended) return void res.end('event: end\ndata: {}\n\n');
  run.follower = res;
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const stop = (): void => {
  server.close();
  server.closeAllConnections();
  agent.destroy();
};
process.stdin.on('end', stop).on('close', stop).resume();
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
