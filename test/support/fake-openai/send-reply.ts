import { encodeChunks } from './chunk-encoding.js';
import { encodeCompletion } from './completion-encoding.js';
import { errorBody } from './error-body.js';
import { sendJson, wait, write, writeHead, type Exchange } from './exchange.js';
import type { ReplyContext } from './reply-context.js';
import type { FakeReply } from './types.js';

/** Not valid JSON: an object cut off in the middle, as a broken proxy might send. */
const MALFORMED_JSON = '{"id":"chatcmpl-fake-broken","choices":[{"delta":{"content":"cut';

/** The `data:` lines of a streamed reply, the malformed one (if asked) in the middle. */
function sseEvents(reply: FakeReply, exchange: Exchange, context: ReplyContext): string[] {
  const events = encodeChunks(reply, exchange.record.body, context).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  if (reply.malformedChunk) events.splice(Math.max(1, Math.floor(events.length / 2)), 0, `data: ${MALFORMED_JSON}\n\n`);
  events.push('data: [DONE]\n\n');
  return events;
}

async function streamReply(reply: FakeReply, exchange: Exchange, context: ReplyContext): Promise<void> {
  writeHead(exchange, 200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...reply.headers,
  });
  exchange.res.flushHeaders();
  const events = sseEvents(reply, exchange, context);
  for (const [position, event] of events.entries()) {
    if (reply.resetAfterChunks === position) {
      exchange.res.socket?.destroy();
      return;
    }
    if (position > 0 && !(await wait(reply.chunkDelayMs ?? 0, exchange.signal))) return;
    await write(exchange, event);
    if (exchange.signal.aborted) return;
  }
  exchange.res.end();
}

/**
 * Answers one chat completion request with `reply`: an error status, a JSON
 * `chat.completion`, or an SSE stream of `chat.completion.chunk`s, with the delays,
 * resets and corruption the reply asks for. Stops as soon as the connection closes.
 */
export async function sendReply(reply: FakeReply, exchange: Exchange, context: ReplyContext): Promise<void> {
  if (reply.hang) return;
  if (!(await wait(reply.delayMs ?? 0, exchange.signal))) return;
  if (reply.status !== undefined) {
    sendJson(exchange, reply.status, errorBody(reply.status, reply.errorMessage), reply.headers);
    return;
  }
  if (exchange.record.stream) {
    await streamReply(reply, exchange, context);
    return;
  }
  if (reply.resetAfterChunks !== undefined) {
    exchange.res.socket?.destroy();
    return;
  }
  if (reply.malformedChunk) {
    writeHead(exchange, 200, { 'content-type': 'application/json', ...reply.headers });
    exchange.res.end(MALFORMED_JSON);
    return;
  }
  sendJson(exchange, 200, encodeCompletion(reply, exchange.record.body, context), reply.headers);
}
