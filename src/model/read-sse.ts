import type { Subscriber } from 'rxjs';
import type { ModelChunk, ModelFinish } from './chat-model.js';
import { readBodyText, type BodySource } from './read-body-text.js';
import type { ReplyLimit } from './reply-limit.js';
import { cutShort, eventTooLong, MAX_EVENT_CHARS } from './sse-failures.js';
import { SseDataParser } from './sse-data-lines.js';
import { sseReply } from './sse-reply.js';
import { KeepAlive, type StreamProgress } from './stream-progress.js';

/**
 * Reads an SSE body of `chat.completion.chunk`s in one linear pass (see docs/performance.md),
 * emits the text and thinking deltas to `out` (unless `deltas` is false: the caller reads
 * only the finish), and returns the finish. The reply is whole
 * once a `finish_reason` or `[DONE]` arrived; a body that ends before either was cut, and
 * fails with a `ModelError` saying what arrived. Everything read after `[DONE]` (the reader
 * drains the body so the connection can be reused) is ignored, its failures too.
 *
 * A reply whose text, reasoning and tool-call arguments together pass `limit.chars` fails
 * with a `ModelError` saying so, at the event that passed it (the body is stopped; the
 * caller aborts the request): a server that ignores `max_tokens`, or loops, never ends
 * its stream, and the idle timeout never fires while it streams.
 *
 * A reply that asks for more than MAX_TOOL_CALLS_PER_STEP tool calls is read no further
 * than the first call over it (the body is stopped; the caller aborts the request): its
 * finish has the calls read so far and `toolCallsCut`, and no step runs any of them.
 *
 * `progress` counts the pieces of the reply and, apart, the keep-alives: comments, events
 * that bring nothing of it, `event:`/`id:`/`retry:` lines and bare line ends, lines that are
 * no SSE (each kind noted in `keepAliveKinds`, for the idle watchdog's message). Once the
 * reader stops it also holds the characters read, the last usage and what came after it.
 *
 * The hot path of every streamed reply: one decode per network read (a Node `data` event from the
 * node:http transport, no promise; a web stream's `read()` otherwise), one `TextDecoder`,
 * a linear pass over its lines (`SseDataParser`; no `TransformStream`s, whose queues and
 * promises cost more per event than parsing it), one `JSON.parse` per event, and each delta
 * handed to `out` synchronously, in the order of the body.
 */
export async function readSse(
  body: BodySource,
  out: Subscriber<ModelChunk>,
  progress: StreamProgress,
  model: string,
  deltas: boolean,
  limit: ReplyLimit,
): Promise<ModelFinish> {
  let oddLine: string | undefined;
  const reply = sseReply(out, progress, model, deltas, limit);
  const parser = new SseDataParser({
    onData: reply.onData,
    onComment: () => {
      progress.keepAlives++;
      progress.keepAliveKinds |= KeepAlive.comment;
    },
    onOddLine: (line) => {
      progress.keepAlives++;
      progress.keepAliveKinds |= KeepAlive.oddLine;
      oddLine ??= line;
    },
    // `event:`, `id:`, `retry:` and bare line ends: bytes of a live server, so keep-alives (they counted as silence).
    onNoData: () => {
      progress.keepAlives++;
      progress.keepAliveKinds |= KeepAlive.noData;
    },
  });
  try {
    await readBodyText(body, (text) => {
      parser.feed(text);
      // An endless line or event (no end for megabytes) is no chat stream: stop before it fills the memory.
      if (parser.held > MAX_EVENT_CHARS) throw eventTooLong(model, progress.events);
    });
    parser.end();
  } catch (error) {
    reply.stop();
    if (reply.flooded()) return reply.finish(true);
    if (!reply.done()) throw error;
  }
  reply.stop();
  // A finish_reason without [DONE] is a whole reply (many servers never send [DONE]); [DONE]
  // without a finish_reason is the server saying it is done. Neither: the body was cut.
  if (!reply.done() && !reply.finished()) throw cutShort(model, progress.events, oddLine ?? (parser.pending || undefined));
  return reply.finish();
}
