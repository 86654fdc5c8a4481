import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Subscriber } from 'rxjs';
import type { ModelChunk, ModelFinish, TokenUsage } from './chat-model.js';
import { ModelError } from './model-error.js';
import { argumentChars, charsOf, streamedTooMuch, type ReplyLimit } from './reply-limit.js';
import { readUsage, type WireUsage } from './read-usage.js';
import { usageWithLater } from './partial-reply.js';
import { KeepAlive, type StreamProgress } from './stream-progress.js';
import { servedError, type WireError } from './served-error.js';
import { MAX_TOOL_CALLS_PER_STEP } from './tool-call-cap.js';
import { finishToolCalls, mergeToolCalls, type PartialCall, type ToolCallFragment } from './tool-call-fragments.js';

/**
 * The text deltas of a step wait in an array this many at a time, then are joined into the
 * text so far: a long reply is held as a few strings rather than one string and one array
 * slot per delta for as long as the step streams (docs/performance.md, "Stop 59: memory per
 * live run"); `TextRope` bounds a run's event log the same way.
 */
const PIECES_PER_JOIN = 16;

/** Thrown through the body reader to stop it at a flood of tool calls (one object, made once). */
export const FLOODED = new Error('the reply asked for more tool calls than a step may run');

/** A chunk as odd servers send it: maybe no `choices`, no `delta`, an `error`, reasoning fields. */
export interface WireChunk {
  readonly choices?: ReadonlyArray<{ readonly delta?: WireDelta; readonly finish_reason?: string | null }>;
  readonly usage?: WireUsage | null;
  readonly error?: WireError;
}

/** `ChatCompletionChunk`'s delta plus the non-standard reasoning fields some servers stream. */
type WireDelta = Omit<ChatCompletionChunk.Choice.Delta, 'tool_calls'> & {
  readonly tool_calls?: readonly ToolCallFragment[];
  readonly reasoning_content?: string | null;
  readonly reasoning?: string | null;
};

/** The reply of one stream as its events build it (see {@link sseReply}). */
export interface SseReply {
  /** Takes one event's data: the hot path. */
  readonly onData: (data: string) => void;
  /** Whether `[DONE]` came. */
  readonly done: () => boolean;
  /** Whether the reader was stopped at a flood of tool calls. */
  readonly flooded: () => boolean;
  /** Whether a `finish_reason` came. */
  readonly finished: () => boolean;
  /** Notes in `progress` what was read (characters, the last usage and what came after it): the reader stopped. */
  readonly stop: () => void;
  /** The finish of what was read. */
  readonly finish: (toolCallsCut?: true) => ModelFinish;
}

/**
 * Builds a streamed reply event by event: emits the text and thinking deltas to `out` (unless
 * `deltas` is false), merges the tool-call fragments, keeps the last usage and the first
 * `finish_reason`, and counts in `progress` what was a piece of the reply (`received`) and
 * what only showed the server alive (`keepAlives`). Throws a `ModelError` at an error event,
 * an event that is no JSON, or past `limit.chars`; {@link FLOODED} at a flood of tool calls.
 * Local variables of one closure, not fields: the hot path of every streamed reply.
 */
export function sseReply(out: Subscriber<ModelChunk>, progress: StreamProgress, model: string, deltas: boolean, limit: ReplyLimit): SseReply {
  // The step's text: `joined` so far, then the pieces that came since (fewer than PIECES_PER_JOIN).
  let joined = '';
  let pieces: string[] = [];
  const calls: PartialCall[] = [];
  let usage: TokenUsage | undefined;
  // The characters read when `usage` came, its own event's included (a usage counts the tokens sent with it).
  let usageChars = 0;
  let finishReason: string | undefined;
  let done = false;
  let flooded = false;
  let streamed = 0;
  const keepAlive = (): void => {
    progress.keepAlives++;
    progress.keepAliveKinds |= KeepAlive.emptyEvent;
  };
  const onData = (data: string): void => {
    // What follows [DONE] is drained, not read: it holds nothing off (the reply is whole).
    if (done) return;
    if (data === '[DONE]') {
      done = true;
      return void progress.received++;
    }
    progress.events++;
    const chunk = parseChunk(data, model, progress.events);
    if (chunk.error) throw servedError(model, 'the stream reported an error', chunk.error);
    const sent = chunk.usage ? readUsage(chunk.usage) : undefined;
    if (sent) usage = sent;
    const choice = chunk.choices?.[0];
    // Only the first finish_reason is news: one sent again with every event holds nothing off.
    const finished = choice?.finish_reason && finishReason === undefined;
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    const delta = choice?.delta;
    if (!delta) {
      if (sent) usageChars = streamed;
      // Some servers send the finish chunk without one; else the event brought nothing of the reply.
      if (finished) progress.received++;
      else keepAlive();
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
    if (sent) usageChars = streamed;
    if (streamed > limit.chars) throw streamedTooMuch(model, limit);
    if (deltas && thinking) out.next({ type: 'thinking-delta', text: thinking });
    if (content) {
      pieces.push(content);
      if (pieces.length === PIECES_PER_JOIN) {
        joined += pieces.join('');
        pieces = []; // a new array: the full one, and its young strings, are garbage now
      }
      if (deltas) out.next({ type: 'text-delta', text: content });
    }
    if (delta.tool_calls && !mergeToolCalls(calls, delta.tool_calls, model, MAX_TOOL_CALLS_PER_STEP)) {
      flooded = true;
      throw FLOODED;
    }
    if (finished || streamed !== before || calls.length !== callsBefore) progress.received++;
    else keepAlive();
  };
  return {
    onData,
    done: () => done,
    flooded: () => flooded,
    finished: () => finishReason !== undefined,
    stop: () => {
      progress.chars = streamed;
      progress.usage = usage;
      progress.charsAfterUsage = usage ? streamed - usageChars : undefined;
    },
    finish: (toolCallsCut) => {
      // A usage sent before the reply's end counts only what came up to it: what streamed after
      // it is added as estimated (a whole reply is charged as a cut one is; servers that send
      // usage last, or with every chunk, are charged exactly what they said).
      const billed = usageWithLater(usage, streamed - usageChars);
      const reply: ModelFinish = { type: 'finish', text: pieces.length === 0 ? joined : joined + pieces.join(''), toolCalls: finishToolCalls(calls), usage: billed, finishReason };
      return toolCallsCut ? { ...reply, toolCallsCut } : reply;
    },
  };
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
