import type { Observable } from 'rxjs';
import type { JsonObject } from '../events/json.js';
import type { ChatMessage } from './chat-message.js';

/** A tool as the model sees it: a name, what it does, and a JSON schema for its arguments. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

/** One request to a model. */
export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** The tools the model may call; absent or empty: the model must answer in text. */
  readonly tools?: readonly ToolSpec[];
}

/** Token usage of one request. */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

/** A tool call as the model produced it; `arguments` is the raw JSON text, unparsed. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A piece of a streamed answer. */
export interface ModelTextDelta {
  readonly type: 'text-delta';
  readonly text: string;
}

/** A piece of streamed reasoning ("thinking"), for servers that send it. */
export interface ModelThinkingDelta {
  readonly type: 'thinking-delta';
  readonly text: string;
}

/** The end of a response: the whole text, the assembled tool calls and the usage. */
export interface ModelFinish {
  readonly type: 'finish';
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage?: TokenUsage;
  readonly finishReason?: string;
}

/** What a model stream emits: deltas, then exactly one `finish`, then completion. */
export type ModelChunk = ModelTextDelta | ModelThinkingDelta | ModelFinish;

/**
 * A chat model. `stream` is cold: each subscription sends one request, and unsubscribing
 * aborts it. A failed request ends the stream with an error (see `ModelError`).
 *
 * @example
 * ```ts
 * const echo: ChatModel = {
 *   id: 'echo',
 *   stream: (req) => of({ type: 'finish', text: String(req.messages.at(-1)?.content), toolCalls: [] }),
 * };
 * ```
 */
export interface ChatModel {
  /** A name for logs and metrics, e.g. the model id sent to the server. */
  readonly id: string;
  /** Streams one response to `request`. */
  stream(request: ChatRequest): Observable<ModelChunk>;
}
