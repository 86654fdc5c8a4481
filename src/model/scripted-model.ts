import { asyncScheduler, concatMap, defer, from, map, Observable, of, throwError, timer, type SchedulerLike } from 'rxjs';
import type { JsonValue } from '../events/json.js';
import type { ChatModel, ChatRequest, FinishReason, ModelChunk, ModelFinish, TokenUsage } from './chat-model.js';
import { CHARS_PER_TOKEN, estimateRequestTokens } from './estimate-tokens.js';
import { ModelError } from './model-error.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';

/** A tool call a scripted reply makes; a string `args` is sent raw (it may be invalid JSON). */
export interface ScriptedToolCall {
  /** The call's id; default `call_<request>_<n>` (both 1-based), unique within a script. */
  readonly id?: string;
  /** The tool to call (it need not exist: scripts can test unknown tools). */
  readonly name: string;
  /** The arguments: a JSON value is serialised, a string is sent as it is. */
  readonly args: JsonValue;
}

/** One scripted model response. */
export interface ScriptedReply {
  /** The answer text, streamed in chunks; default empty. */
  readonly text?: string;
  /** Reasoning streamed as thinking deltas before the text; default none. */
  readonly thinking?: string;
  /** Tool calls the reply asks for; default none (the reply is a final answer). */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /**
   * Usage to report; missing fields are estimated (four characters a token): the prompt as
   * `estimateRequestTokens` counts a whole request (its messages and the tool schemas it
   * offers, as the budget's estimate of a server that reports no usage), the completion from
   * the reply's text, thinking and tool calls.
   */
  readonly usage?: Partial<TokenUsage>;
  /** Wait before the first chunk, in milliseconds (on the model's scheduler). */
  readonly delayMs?: number;
  /** Wait between chunks; overrides the model's default. */
  readonly chunkDelayMs?: number;
  /** Characters per streamed delta; overrides the model's default. */
  readonly chunkSize?: number;
  /** Fail the request with a `ModelError` carrying this message (after the delay). */
  readonly error?: string;
  /** The finish reason to report (e.g. `length` for a reply cut by the token limit); default `tool_calls` with tool calls, else `stop`. */
  readonly finishReason?: FinishReason;
}

/** Chooses the reply to a request: a pure function of the request makes a deterministic model. */
export type ScriptedResponder = (request: ChatRequest, context: { readonly index: number }) => ScriptedReply;

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** The model's `id`; default `scripted`. */
  readonly id?: string;
  /** Scheduler for delays: pass a `TestScheduler` for virtual time. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Default wait between chunks, in milliseconds from 0 (every chunk at once) to `MAX_TIMER_MS`; else a RangeError. */
  readonly chunkDelayMs?: number;
  /** Default characters per delta (default 24): a whole number, at least 1; else a RangeError. */
  readonly chunkSize?: number;
}

/**
 * A deterministic {@link ChatModel} that plays a script: a list of replies taken in order,
 * or a responder that picks a reply from the request. It streams text in chunks with
 * optional delays (on an injectable scheduler), so it drives the offline demo and tests
 * without a network. Every request is kept in `requests`.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel([
 *   { toolCalls: [{ name: 'read', args: { path: 'README.md' } }] },
 *   { text: 'The README describes rxharness.' },
 * ]);
 * ```
 */
export class ScriptedModel implements ChatModel {
  readonly id: string;
  /** Every request received, in order. */
  readonly requests: ChatRequest[] = [];
  private readonly scheduler: SchedulerLike;

  constructor(
    private readonly script: readonly ScriptedReply[] | ScriptedResponder,
    private readonly options: ScriptedModelOptions = {},
  ) {
    this.id = options.id ?? 'scripted';
    this.scheduler = options.scheduler ?? asyncScheduler;
    checkDelay('chunkDelayMs', options.chunkDelayMs);
    checkChunkSize(options.chunkSize);
  }

  stream(request: ChatRequest): Observable<ModelChunk> {
    return defer(() => {
      const index = this.requests.push(request) - 1;
      const reply = typeof this.script === 'function' ? this.script(request, { index }) : this.script[index];
      if (!reply) {
        return throwError(() => new ModelError(`ScriptedModel "${this.id}": no reply scripted for request #${index + 1}`));
      }
      // A reply is read while the model streams: a bad value fails this request, not the program.
      try {
        checkDelay('delayMs', reply.delayMs);
        checkDelay('chunkDelayMs', reply.chunkDelayMs);
        checkChunkSize(reply.chunkSize);
      } catch (e) {
        return throwError(() => e);
      }
      const size = reply.chunkSize ?? this.options.chunkSize ?? 24;
      const first = reply.delayMs ?? 0;
      const gap = reply.chunkDelayMs ?? this.options.chunkDelayMs ?? 0;
      // Without delays or a failure, the chunks are cut while they are emitted: no list of
      // them up front and no operator per chunk (a test double should cost next to nothing).
      if (reply.error === undefined && first === 0 && gap === 0) return chunks$(reply, request, index, size);
      const chunks = toChunks(reply, request, index, size);
      const failure = reply.error;
      const all$ = failure === undefined ? from(chunks) : from([...chunks.slice(0, -1), failure]);
      const timed$ =
        first === 0 && gap === 0
          ? all$
          : // A wait of 0 is none: no timer (a timer of 0 is a macrotask, a millisecond under fake timers).
            all$.pipe(concatMap((c, i) => ((i === 0 ? first : gap) > 0 ? timer(i === 0 ? first : gap, this.scheduler).pipe(map(() => c)) : of(c))));
      return timed$.pipe(
        map((c) => {
          if (typeof c === 'string') throw new ModelError(c);
          return c;
        }),
      );
    });
  }
}

/**
 * Refuses a delay a timer cannot be armed with: above MAX_TIMER_MS Node fires it after 1 ms
 * (with only a warning), and a negative or NaN one means nothing.
 */
function checkDelay(name: string, value: number | undefined): void {
  if (value === undefined || (value >= 0 && value <= MAX_TIMER_MS)) return;
  throw new RangeError(`ScriptedModel: \`${name}\` must be a number of milliseconds from 0 (every chunk at once) to ${MAX_TIMER_MS} (the longest a timer holds, about 24.8 days), got ${String(value)}`);
}

/** Refuses a chunk size that cuts nothing: 0, a fraction or NaN would never advance through the text. */
function checkChunkSize(value: number | undefined): void {
  if (value === undefined || (Number.isSafeInteger(value) && value >= 1)) return;
  throw new RangeError(`ScriptedModel: \`chunkSize\` must be a whole number of characters, at least 1, got ${String(value)}`);
}

/** The chunks of `toChunks`, cut and emitted one by one, synchronously; stops when unsubscribed. */
function chunks$(reply: ScriptedReply, request: ChatRequest, index: number, size: number): Observable<ModelChunk> {
  return new Observable<ModelChunk>((out) => {
    const thinking = reply.thinking ?? '';
    for (let i = 0; i < thinking.length && !out.closed; i += size) out.next({ type: 'thinking-delta', text: thinking.slice(i, i + size) });
    const text = reply.text ?? '';
    for (let i = 0; i < text.length && !out.closed; i += size) out.next({ type: 'text-delta', text: text.slice(i, i + size) });
    if (out.closed) return;
    out.next(finishOf(reply, request, index));
    out.complete();
  });
}

function toChunks(reply: ScriptedReply, request: ChatRequest, index: number, size: number): ModelChunk[] {
  const chunks: ModelChunk[] = [];
  for (const piece of split(reply.thinking ?? '', size)) chunks.push({ type: 'thinking-delta', text: piece });
  for (const piece of split(reply.text ?? '', size)) chunks.push({ type: 'text-delta', text: piece });
  chunks.push(finishOf(reply, request, index));
  return chunks;
}

/** The reply's finish: its text, tool calls (ids by request and position), usage and reason. */
function finishOf(reply: ScriptedReply, request: ChatRequest, index: number): ModelFinish {
  const text = reply.text ?? '';
  const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${index + 1}_${i + 1}`,
    name: c.name,
    arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
  }));
  const completion = Math.ceil((text.length + (reply.thinking?.length ?? 0)) / CHARS_PER_TOKEN) + toolCalls.length * 8;
  // The whole request, tool schemas included (often most of a prompt), as a real server counts it.
  const prompt = reply.usage?.promptTokens ?? estimateRequestTokens(request);
  const done = reply.usage?.completionTokens ?? completion;
  const finish: ModelFinish = {
    type: 'finish',
    text,
    toolCalls,
    usage: { promptTokens: prompt, completionTokens: done, totalTokens: reply.usage?.totalTokens ?? prompt + done },
    finishReason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
  };
  return finish;
}

function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
