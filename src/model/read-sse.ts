import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Subscriber } from 'rxjs';
import type { ModelChunk, ModelFinish, TokenUsage } from './chat-model.js';
import { ModelError } from './model-error.js';
import { readBodyText, type BodySource } from './read-body-text.js';
import { argumentChars, charsOf, streamedTooMuch, type ReplyLimit } from './reply-limit.js';
import { readUsage, type WireUsage } from './read-usage.js';
import { SseDataParser } from './sse-data-lines.js';
import { MAX_TOOL_CALLS_PER_STEP } from './tool-call-cap.js';
import { finishToolCalls, mergeToolCalls, type PartialCall, type ToolCallFragment } from './tool-call-fragments.js';

/** What the reader has received so far; the idle watchdog compares `received` and `keepAlives`. */
export interface StreamProgress {
  /**
   * Pieces of the reply: events that brought text, reasoning or tool-call arguments, a new
   * tool call, a first `finish_reason` or `[DONE]`; for a whole JSON completion, each read of
   * its body.
   */
  received: number;
  /** SSE `data:` events only. */
  events: number;
  /**
   * What arrived without being a piece of the reply: comments (`: ping`), events that brought
   * nothing of it (`{}`, an empty delta, usage alone, the same `finish_reason` again) and lines
   * that are no SSE. They show the server alive (the idle timeout watches both counters), but
   * a server that sends only these forever never answers: the watchdog bounds them apart.
   */
  keepAlives: number;
  /**
   * Characters read, set once the reader stops (not while it reads: the hot path): of text,
   * reasoning and tool-call arguments for a stream, of the body for a whole JSON completion.
   */
  chars?: number;
  /** The last usage the server sent, set with `chars`: a stream cut after it was billed that. */
  usage?: TokenUsage;
}

/**
 * The most characters of one event the reader holds while waiting for its end: far above any chat chunk
 * (one delta, a few hundred bytes; a whole tool call's arguments in one chunk stay well
 * under it), far below what would strain the process.
 */
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/** Thrown through the body reader to stop it at a flood of tool calls (one object, made once). */
const FLOODED = new Error('the reply asked for more tool calls than a step may run');

/** A chunk as odd servers send it: maybe no `choices`, no `delta`, an `error`, reasoning fields. */
interface WireChunk {
  readonly choices?: ReadonlyArray<{ readonly delta?: WireDelta; readonly finish_reason?: string | null }>;
  readonly usage?: WireUsage | null;
  readonly error?: { readonly message?: string };
}

/** `ChatCompletionChunk`'s delta plus the non-standard reasoning fields some servers stream. */
type WireDelta = Omit<ChatCompletionChunk.Choice.Delta, 'tool_calls'> & {
  readonly tool_calls?: readonly ToolCallFragment[];
  readonly reasoning_content?: string | null;
  readonly reasoning?: string | null;
};

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
  const text: string[] = [];
  const calls: PartialCall[] = [];
  let usage: TokenUsage | undefined;
  let finishReason: string | undefined;
  let done = false;
  let flooded = false;
  let streamed = 0;
  const onData = (data: string): void => {
    // What follows [DONE] is drained, not read: it holds nothing off (the reply is whole).
    if (done) return;
    if (data === '[DONE]') {
      done = true;
      return void progress.received++;
    }
    progress.events++;
    const chunk = parseChunk(data, model, progress.events);
    if (chunk.error) throw new ModelError(`model "${model}": the stream reported an error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
    if (chunk.usage) usage = readUsage(chunk.usage) ?? usage;
    const choice = chunk.choices?.[0];
    // Only the first finish_reason is news: one sent again with every event holds nothing off.
    const finished = choice?.finish_reason && finishReason === undefined;
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    const delta = choice?.delta;
    if (!delta) {
      // Some servers send the finish chunk without one; else the event brought nothing of the reply.
      if (finished) progress.received++;
      else progress.keepAlives++;
      return;
    }
    // Whether it brought anything: events of empty deltas, sent forever, are keep-alives, not an answer.
    const before = streamed;
    const callsBefore = calls.length;
    const thinking = delta.reasoning_content ?? delta.reasoning;
    const content = delta.content;
    // Counted before anything of the event goes on; reasoning too when nobody reads it (it holds the run all the same).
    if (thinking) streamed += charsOf(thinking);
    if (content) streamed += charsOf(content);
    if (delta.tool_calls) streamed += argumentChars(delta.tool_calls);
    if (streamed > limit.chars) throw streamedTooMuch(model, limit);
    if (deltas && thinking) out.next({ type: 'thinking-delta', text: thinking });
    if (content) {
      text.push(content);
      if (deltas) out.next({ type: 'text-delta', text: content });
    }
    if (delta.tool_calls && !mergeToolCalls(calls, delta.tool_calls, model, MAX_TOOL_CALLS_PER_STEP)) {
      flooded = true;
      throw FLOODED;
    }
    if (finished || streamed !== before || calls.length !== callsBefore) progress.received++;
    else progress.keepAlives++;
  };
  const parser = new SseDataParser({
    onData,
    onComment: () => void progress.keepAlives++,
    onOddLine: (line) => {
      progress.keepAlives++;
      oddLine ??= line;
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
    progress.chars = streamed;
    progress.usage = usage;
    if (flooded) return { type: 'finish', text: text.join(''), toolCalls: finishToolCalls(calls), usage, finishReason, toolCallsCut: true };
    if (!done) throw error;
  }
  progress.chars = streamed;
  progress.usage = usage;
  // A finish_reason without [DONE] is a whole reply (many servers never send [DONE]); [DONE]
  // without a finish_reason is the server saying it is done. Neither: the body was cut.
  if (!done && finishReason === undefined) throw cutShort(model, progress.events, oddLine ?? (parser.pending || undefined));
  return { type: 'finish', text: text.join(''), toolCalls: finishToolCalls(calls), usage, finishReason };
}

/** The event's JSON; data that is none (a whitespace `data:` line, a cut object) fails saying what it was. */
function parseChunk(data: string, model: string, event: number): WireChunk {
  try {
    return JSON.parse(data) as WireChunk;
  } catch (error) {
    const start = JSON.stringify(data.length > 200 ? `${data.slice(0, 200)}...` : data);
    const why = error instanceof Error ? error.message : String(error);
    throw new ModelError(`model "${model}": the response could not be read (chunk ${event} is not JSON: ${why}; it was ${start})`, { cause: error });
  }
}

function eventTooLong(model: string, events: number): ModelError {
  const limit = `${MAX_EVENT_CHARS / 1024 / 1024} MiB`;
  return new ModelError(`model "${model}": the server sent more than ${limit} without ending an event, after ${chunks(events)}: this is not a stream of server-sent events; the response was abandoned`);
}

function cutShort(model: string, events: number, oddLine: string | undefined): ModelError {
  if (events === 0 && oddLine !== undefined) {
    const start = oddLine.length > 200 ? `${oddLine.slice(0, 200)}...` : oddLine;
    return new ModelError(`model "${model}": the response is not a stream of server-sent events; it began: ${start}`);
  }
  return new ModelError(
    `model "${model}": the stream ended after ${chunks(events)} without finish_reason or [DONE]: the connection was probably cut`,
  );
}

/** `1 chunk`, `3 chunks`. */
export function chunks(count: number): string {
  return `${count} chunk${count === 1 ? '' : 's'}`;
}
