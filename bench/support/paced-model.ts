/**
 * A fake OpenAI-compatible model that streams at a real model's pace, in its own process,
 * for the serve-load benchmark:
 *
 * ```sh
 * node --import tsx bench/support/paced-model.ts
 * ```
 *
 * Prints one line `{"baseURL": ...}`; ends when stdin closes. A request offering
 * `multitask` whose history has no tool result yet is answered with a `multitask` call of
 * two `general` tasks; every other request with {@link DELTAS} content deltas, one every
 * {@link PACE_MS} ms (about 30 a second), each carrying the wall-clock time it was sent
 * (`⟨<ms since the epoch>⟩`) so a client can measure delivery latency across processes.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { serveModelProcess } from './model-process.js';
import { wallNow } from './wall-clock.js';

/** Content deltas of one answer. */
const DELTAS = 60;
/** Milliseconds between two deltas. */
const PACE_MS = 33;


interface ChatBody {
  readonly messages?: readonly { role: string }[];
  readonly tools?: readonly { function?: { name?: string } }[];
}

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'paced', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const DONE = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'paced', choices: [], usage: { prompt_tokens: 100, completion_tokens: DELTAS, total_tokens: 100 + DELTAS } })}\n\ndata: [DONE]\n\n`;

function delegate(res: ServerResponse): void {
  const args = JSON.stringify({
    tasks: [1, 2].map((index) => ({ index, agent_name: 'general', prompt: `part ${index}`, description: `Part ${index}` })),
  });
  res.write(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_mt', type: 'function', function: { name: 'multitask', arguments: args } }] }));
  res.end(chunk({}, 'tool_calls') + DONE);
}

function paced(res: ServerResponse): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    res.write(chunk(sent === 0 ? { role: 'assistant', content: `⟨${wallNow()}⟩` } : { content: `⟨${wallNow()}⟩` }));
    sent += 1;
    if (sent === DELTAS) {
      clearInterval(timer);
      res.end(chunk({}, 'stop') + DONE);
    }
  }, PACE_MS);
  res.on('close', () => clearInterval(timer));
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = '';
  for await (const part of req) raw += String(part);
  const body = JSON.parse(raw) as ChatBody;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const offersMultitask = (body.tools ?? []).some((t) => t.function?.name === 'multitask');
  const hasResult = (body.messages ?? []).some((m) => m.role === 'tool');
  if (offersMultitask && !hasResult) delegate(res);
  else paced(res);
}

const server = createServer((req, res) => {
  answer(req, res).catch(() => res.destroy());
});
server.maxConnections = 100_000;
await serveModelProcess(server);
