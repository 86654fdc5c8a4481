/**
 * A fake OpenAI-compatible model for the first-event benchmark, in its own process:
 *
 * ```sh
 * node --import tsx bench/support/first-byte-model.ts
 * ```
 *
 * Prints one line `{"baseURL": ...}`; ends when stdin closes. Every response's first chunk
 * (sent with the response's headers, in one write) is a content delta carrying the
 * wall-clock time just before that write (`⟨<ms since the epoch>⟩`): the model's first byte.
 * A request offering `task` whose history has no tool result yet then gets a `task` call of
 * the `worker` agent; any other a few more content deltas. No pacing: each response is
 * written at once, so what a client measures is its own way from the first byte to its
 * first event.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { serveModelProcess } from './model-process.js';
import { wallNow } from './wall-clock.js';

interface ChatBody {
  readonly messages?: readonly { role: string }[];
  readonly tools?: readonly { function?: { name?: string } }[];
}

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'first-byte', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const DONE = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'first-byte', choices: [], usage: { prompt_tokens: 100, completion_tokens: 6, total_tokens: 106 } })}\n\ndata: [DONE]\n\n`;
const TASK_CALL = chunk({
  tool_calls: [{ index: 0, id: 'call_task', type: 'function', function: { name: 'task', arguments: JSON.stringify({ agent_name: 'worker', prompt: 'Report on part 1.', description: 'Part 1' }) } }],
});
const REST = [' part', ' one', ' is', ' fine', '.'].map((text) => chunk({ content: text })).join('');

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = '';
  for await (const part of req) raw += String(part);
  const body = JSON.parse(raw) as ChatBody;
  const delegate = (body.tools ?? []).some((t) => t.function?.name === 'task') && !(body.messages ?? []).some((m) => m.role === 'tool');
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  // Headers and the stamped chunk leave in one write: the stamp is the first byte's time.
  res.write(chunk({ role: 'assistant', content: `⟨${wallNow()}⟩` }));
  res.end(delegate ? TASK_CALL + chunk({}, 'tool_calls') + DONE : REST + chunk({}, 'stop') + DONE);
}

const server = createServer((req, res) => {
  answer(req, res).catch(() => res.destroy());
});
await serveModelProcess(server);
