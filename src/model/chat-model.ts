import type { Observable } from 'rxjs';
import type { JsonObject } from '../events/json.js';
import type { ChatMessage } from './chat-message.js';
import type { ModelSettings } from './model-settings.js';

/** A tool as the model sees it: a name, what it does, and a JSON schema for its arguments. */
export interface ToolSpec {
  /** The name the model calls the tool by. */
  readonly name: string;
  /** What the tool does and when to use it, written for the model. */
  readonly description: string;
  /** The JSON schema of the tool's arguments object. */
  readonly parameters: JsonObject;
}

/** One request to a model. */
export interface ChatRequest {
  /** The conversation to answer, oldest first. */
  readonly messages: readonly ChatMessage[];
  /** The tools the model may call; absent or empty: the model must answer in text. */
  readonly tools?: readonly ToolSpec[];
  /** Settings of this request (an agent's own); they win over the model's defaults. */
  readonly settings?: ModelSettings;
  /**
   * Who sends the request: the agent (`main` or a definition's name) and its run. Never sent
   * to the server; for models that answer per agent (a `ScriptedModel` playing a whole
   * delegation tree), logs and telemetry.
   */
  readonly sender?: RequestSender;
  /**
   * `false` when the caller reads only the `finish` (a run under `call()`, which emits no
   * deltas): a model may then leave its text and thinking deltas out, as `OpenAIChatModel`
   * does, and spare an object and a delivery per streamed piece. The `finish` is the same
   * either way. Absent or `true`: stream the deltas.
   */
  readonly deltas?: boolean;
  /**
   * Asked when the request may be sent after waiting for a slot of the engine's request
   * limiter (`maxConcurrentRequests`): an error it answers fails the request, unsent. A request
   * may wait long for its slot, and what let it through may no longer hold (a token budget the
   * requests before it spent). Never sent to the server; without a limiter it is never asked,
   * and a model of the user's may ignore it. A field, so a copy of the request keeps it.
   *
   * @example
   * ```ts
   * const request: ChatRequest = { messages, admit: () => (budget.remaining() > 0 ? undefined : new Error('spent')) };
   * ```
   */
  readonly admit?: () => Error | undefined;
}

/** The agent run a request comes from. */
export interface RequestSender {
  /** The agent's name: `main`, or a definition's name. */
  readonly agentName: string;
  /** The run's id, as in its events. */
  readonly runId: string;
  /** The ReAct step making the request, from 1. */
  readonly step: number;
}

/** Token usage of one request. */
export interface TokenUsage {
  /** Tokens of the request's input, as the server counted them. */
  readonly promptTokens: number;
  /** Tokens the model generated, as the server counted them. */
  readonly completionTokens: number;
  /** The two together, as the server reported it. */
  readonly totalTokens: number;
}

/** A tool call as the model produced it; `arguments` is the raw JSON text, unparsed. */
export interface ModelToolCall {
  /** The model's id for the call; the tool result must answer it. */
  readonly id: string;
  /** The tool the model named (possibly one it was not offered). */
  readonly name: string;
  /** The arguments as JSON text, possibly invalid. */
  readonly arguments: string;
}

/** A piece of a streamed answer. */
export interface ModelTextDelta {
  /** Marks a piece of answer text. */
  readonly type: 'text-delta';
  /** The new text only. */
  readonly text: string;
}

/** A piece of streamed reasoning ("thinking"), for servers that send it. */
export interface ModelThinkingDelta {
  /** Marks a piece of reasoning. */
  readonly type: 'thinking-delta';
  /** The new reasoning text only. */
  readonly text: string;
}

/**
 * Why the model stopped, as the server said it: `stop` (a whole answer), `tool_calls` (it
 * wants tools run), `length` (cut by the token limit: the text is incomplete),
 * `content_filter` (cut by the provider's filter), or a server's own word, kept as sent.
 */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | (string & {});

/** The end of a response: the whole text, the assembled tool calls and the usage. */
export interface ModelFinish {
  /** Marks the end of the response. */
  readonly type: 'finish';
  /** The whole answer text (the text deltas joined); empty when the model only called tools. */
  readonly text: string;
  /** The tool calls the model asked for, in order; empty when it answered in text. */
  readonly toolCalls: readonly ModelToolCall[];
  /**
   * The request's token usage; absent when the server reports none (it then counts as 0). From
   * the built-in model, a usage streamed before the reply's last delta is the server's plus an estimate of what came
   * after it (four characters a token): it counted only what came up to it.
   */
  readonly usage?: TokenUsage;
  /**
   * The server's `finish_reason`, carried as it was sent. Absent only when the server ended
   * the response properly (`[DONE]`, or a whole JSON completion) without giving one; a stream
   * that ends with neither `[DONE]` nor a `finish_reason` was cut, and errors instead of
   * finishing. A `length` or `content_filter` finish holds an incomplete reply.
   */
  readonly finishReason?: FinishReason;
  /**
   * `true` when the reply asked for more tool calls than a step may run
   * (`MAX_TOOL_CALLS_PER_STEP`, 128) and was read no further: `OpenAIChatModel` stops at the
   * first call over the limit and aborts the request, so a flood is never held whole.
   * `toolCalls` then holds the calls read so far (the last perhaps incomplete); the step runs
   * none of them and ends the run saying so. Absent otherwise.
   */
  readonly toolCallsCut?: boolean;
}

/**
 * Something the user should know about a request that goes on (a wait for a server still
 * starting, a request sent again without parallel tool calls); a run streams it as a
 * `Warning` event.
 */
export interface ModelWarning {
  /** Marks a warning. */
  readonly type: 'warning';
  /** A stable code, e.g. `model-server-starting`. */
  readonly code: string;
  /** What happened and what the model does about it. */
  readonly message: string;
}

/** What a model stream emits: deltas and warnings, then exactly one `finish`, then completion. */
export type ModelChunk = ModelTextDelta | ModelThinkingDelta | ModelWarning | ModelFinish;

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
  /**
   * The defaults of every request, when the model has some (an agent's own settings win over
   * them); read to say which limit cut a reply (`maxTokens`, or the context window).
   */
  readonly settings?: ModelSettings;
  /** Streams one response to `request`. */
  stream(request: ChatRequest): Observable<ModelChunk>;
  /**
   * The model's context window in tokens (prompt and answer together), when the model knows
   * it: its `contextWindow` setting, or what its server says. Optional; `undefined` when
   * unknown. Asked before each request of a run that keeps a session (see docs/sessions.md),
   * so an implementation caches what it looked up and never throws.
   */
  contextWindow?(): number | undefined | Promise<number | undefined>;
}
