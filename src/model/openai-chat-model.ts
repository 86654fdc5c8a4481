import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { Observable, type Subscriber } from 'rxjs';
import type { ChatModel, ChatRequest, ModelChunk, ModelToolCall, TokenUsage } from './chat-model.js';
import { ModelError } from './model-error.js';
import { toModelError } from './to-model-error.js';

/** Options of {@link OpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  /** The model id sent to the server, e.g. `gpt-4o-mini`. */
  readonly model: string;
  /** Server URL; default `OPENAI_BASE_URL`, then OpenAI's. Ignored when `client` is given. */
  readonly baseURL?: string;
  /** Default `OPENAI_API_KEY`. Ignored when `client` is given. */
  readonly apiKey?: string;
  /** A ready client (its own retries, timeout and fetch apply). */
  readonly client?: OpenAI;
  /** Retries of failed requests (429, 5xx, connection errors); the client's default is 2. */
  readonly maxRetries?: number;
  /** Timeout of one request in milliseconds; the client's default is 10 minutes. */
  readonly timeoutMs?: number;
  /** Extra body fields sent with every request (temperature, reasoning_effort...). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

/** Servers that stream reasoning put it in one of these non-standard delta fields. */
interface ThinkingDelta {
  readonly reasoning_content?: string | null;
  readonly reasoning?: string | null;
}

/** An error some servers send inside the stream instead of a chunk. */
interface StreamError {
  readonly error?: { readonly message?: string };
}

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

/**
 * A {@link ChatModel} over the official `openai` client and any OpenAI-compatible server.
 * Each subscription streams one chat completion with tools, asks for usage in the stream,
 * assembles tool-call fragments by index, and reports `reasoning_content` / `reasoning`
 * deltas as thinking. Unsubscribing aborts the HTTP request. Failures (after the client's
 * retries) end the stream with a `ModelError` carrying the HTTP status.
 *
 * @example
 * ```ts
 * const model = new OpenAIChatModel({ model: 'gpt-4o-mini' }); // OPENAI_API_KEY from the env
 * const engine = new HarnessEngine({ model });
 * ```
 */
export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  private readonly client: OpenAI;
  private readonly extraBody: Readonly<Record<string, unknown>>;

  constructor(options: OpenAIChatModelOptions) {
    if (typeof options?.model !== 'string' || options.model.trim() === '') {
      throw new TypeError('OpenAIChatModel: `model` must be a non-empty string, e.g. "gpt-4o-mini"');
    }
    this.id = options.model;
    this.extraBody = options.extraBody ?? {};
    this.client =
      options.client ??
      new OpenAI({
        baseURL: options.baseURL ?? process.env.OPENAI_BASE_URL,
        apiKey: options.apiKey ?? process.env.OPENAI_API_KEY,
        maxRetries: options.maxRetries,
        timeout: options.timeoutMs,
      });
  }

  stream(request: ChatRequest): Observable<ModelChunk> {
    return new Observable<ModelChunk>((subscriber) => {
      const abort = new AbortController();
      this.pump(request, subscriber, abort.signal).catch((error: unknown) => {
        // After an unsubscribe nobody listens; the abort error is ours, not the model's.
        if (!abort.signal.aborted) subscriber.error(toModelError(error, this.id));
      });
      return () => abort.abort();
    });
  }

  private async pump(request: ChatRequest, out: Subscriber<ModelChunk>, signal: AbortSignal): Promise<void> {
    const body: ChatCompletionCreateParamsStreaming = {
      ...this.extraBody,
      model: this.id,
      messages: request.messages as ChatCompletionCreateParamsStreaming['messages'],
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools?.length) {
      body.tools = request.tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    // The client sends the request (retries, errors, headers); the body is read here with
    // one pass of an SSE parser, because openai 6's decoder copies the rest of its buffer for
    // every event it finds, which turns a large network read into quadratic garbage.
    const response = await this.client.chat.completions.create(body, { signal }).asResponse();
    if (!response.body) throw new ModelError(`model "${this.id}": the response has no body to stream`);
    const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    const text: string[] = [];
    const calls: PartialCall[] = [];
    let usage: TokenUsage | undefined;
    let finishReason: string | undefined;
    let done = false;
    for await (const message of events) {
      // Read on after [DONE] to the end of the body, so the connection can be reused.
      if (done || message.data === '[DONE]') {
        done = true;
        continue;
      }
      const chunk = JSON.parse(message.data) as ChatCompletionChunk & StreamError;
      if (chunk.error) throw new ModelError(`model "${this.id}": the stream reported an error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
      if (chunk.usage) usage = readUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const delta = choice.delta as ChatCompletionChunk.Choice.Delta & ThinkingDelta;
      const thinking = delta.reasoning_content ?? delta.reasoning;
      if (thinking) out.next({ type: 'thinking-delta', text: thinking });
      if (delta.content) {
        text.push(delta.content);
        out.next({ type: 'text-delta', text: delta.content });
      }
      if (delta.tool_calls) mergeToolCalls(calls, delta.tool_calls);
    }
    const toolCalls: ModelToolCall[] = calls
      .filter((c) => c !== undefined)
      .map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.args }));
    out.next({ type: 'finish', text: text.join(''), toolCalls, usage, finishReason });
    out.complete();
  }
}

/** Tool calls arrive in fragments keyed by `index`: the first has id and name, the rest args. */
function mergeToolCalls(calls: PartialCall[], fragments: readonly ChatCompletionChunk.Choice.Delta.ToolCall[]): void {
  for (const f of fragments) {
    const call = (calls[f.index] ??= { id: '', name: '', args: '' });
    if (f.id) call.id = f.id;
    // Some servers repeat the name on every fragment: keep the first, never concatenate.
    if (f.function?.name && !call.name) call.name = f.function.name;
    if (f.function?.arguments) call.args += f.function.arguments;
  }
}

function readUsage(u: NonNullable<ChatCompletionChunk['usage']>): TokenUsage {
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, totalTokens: u.total_tokens };
}
