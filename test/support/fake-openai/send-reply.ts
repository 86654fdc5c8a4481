import { encodeChunks } from './chunk-encoding.js';
import { applyChunkQuirks } from './chunk-quirks.js';
import { encodeCompletion } from './completion-encoding.js';
import { errorBody } from './error-body.js';
import { sendJson, wait, write, writeHead, yieldToLoop, type Exchange } from './exchange.js';
import type { ReplyContext } from './reply-context.js';
import type { FakeReply } from './types.js';

/** Not valid JSON: an object cut off in the middle, as a broken proxy might send. */
const MALFORMED_JSON = '{"id":"chatcmpl-fake-broken","choices":[{"delta":{"content":"cut';

/** How many events are written between two turns given back to the event loop (see `yieldToLoop`). */
const WRITES_PER_TURN = 64;

/** The `data:` lines of a streamed reply, the malformed one (if asked) in the middle. */
function sseEvents(reply: FakeReply, exchange: Exchange, context: ReplyContext): string[] {
  const chunks = applyChunkQuirks(encodeChunks(reply, exchange.record.body, context), reply);
  const events = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  if (reply.malformedChunk) events.splice(Math.max(1, Math.floor(events.length / 2)), 0, `data: ${MALFORMED_JSON}\n\n`);
  if (!reply.omitDone) events.push('data: [DONE]\n\n');
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
    // Silent, with the connection left open: only the client (or close()) ends it.
    if (reply.stallAfterChunks === position) return;
    if (reply.endAfterChunks === position) {
      exchange.res.end();
      return;
    }
    if (position > 0 && !(await wait(reply.chunkDelayMs ?? 0, exchange.signal))) return;
    await write(exchange, event);
    if ((position + 1) % WRITES_PER_TURN === 0) await yieldToLoop();
    if (exchange.signal.aborted) return;
  }
  if (reply.stallAfterChunks !== undefined && reply.stallAfterChunks >= events.length) return;
  exchange.res.end();
}

/**
 * Answers one chat completion request with `reply`: a recorded SSE body as it is, an error
 * status, a JSON `chat.completion` (also to a streaming request when the reply says
 * `ignoreStream`), or an SSE stream of `chat.completion.chunk`s, with the delays, resets,
 * stalls, cuts and corruption the reply asks for. Stops as soon as the connection closes.
 */
export async function sendReply(reply: FakeReply, exchange: Exchange, context: ReplyContext): Promise<void> {
  if (reply.hang) return;
  if (!(await wait(reply.delayMs ?? 0, exchange.signal))) return;
  if (reply.rawSse !== undefined) {
    writeHead(exchange, 200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...reply.headers });
    // Destroyed once the bytes are handed to the socket: they arrive, then the connection breaks.
    if (reply.rawSseReset) exchange.res.write(reply.rawSse, () => exchange.res.socket?.destroy());
    else exchange.res.end(reply.rawSse);
    return;
  }
  if (reply.status !== undefined) {
    sendJson(exchange, reply.status, errorBody(reply.status, reply.errorMessage), reply.headers);
    return;
  }
  if (exchange.record.stream && !reply.ignoreStream) {
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
