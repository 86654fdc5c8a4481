/**
 * Public types of the fake OpenAI-compatible server: what a test scripts (`FakeReply`),
 * and what the server records about each request (`RecordedRequest`).
 *
 * @module
 */
import type { JsonObject } from '../../../src/events/json.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';

/** One tool call the fake model makes. */
export interface FakeToolCall {
  /** The call id; default: `call_<request index>_<call position>`. */
  readonly id?: string;
  /** The function name. */
  readonly name: string;
  /**
   * The arguments: an object is sent as its JSON text; a string is sent as it is (so a test
   * can send invalid JSON on purpose).
   */
  readonly arguments: string | Record<string, unknown>;
}

/** Token usage as the OpenAI wire format spells it. */
export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

/** What the fake server answers to one chat completion request. */
export interface FakeReply {
  /** The assistant's text. */
  readonly text?: string;
  /** Reasoning, streamed as `delta.reasoning_content` before the text (DeepSeek/vLLM style). */
  readonly thinking?: string;
  /** Tool calls; several are allowed. */
  readonly toolCalls?: readonly FakeToolCall[];
  /** Usage; default: a deterministic estimate (see `estimateUsage`); `false`: none is sent. */
  readonly usage?: FakeUsage | false;
  /** A usage object sent as it is instead of `usage`, e.g. one with fields left out as some servers do. */
  readonly rawUsage?: JsonObject;
  /** Answer with this HTTP error status and an OpenAI-style error body instead. */
  readonly status?: number;
  /** The error body's message (with `status`). */
  readonly errorMessage?: string;
  /** Extra response headers, e.g. `{ 'retry-after': '0' }`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds to wait before sending the response headers. */
  readonly delayMs?: number;
  /** Milliseconds to wait between SSE chunks. */
  readonly chunkDelayMs?: number;
  /** Characters per text/thinking delta (default 16). Tool-call arguments are always split. */
  readonly chunkSize?: number;
  /** Destroy the socket after this many SSE chunks (a connection reset mid-stream). */
  readonly resetAfterChunks?: number;
  /** Send one `data:` line that is not valid JSON mid-stream (or a broken JSON body). */
  readonly malformedChunk?: boolean;
  /** Never answer, until the client goes away or the server closes. */
  readonly hang?: boolean;
  /** The finish reason; default `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: string;
  /**
   * Go silent after this many SSE chunks (0: right after the headers; at or past the last
   * one: after `[DONE]`), keeping the connection open until the client leaves.
   */
  readonly stallAfterChunks?: number;
  /**
   * End the response cleanly after this many SSE chunks: no finish chunk, no usage, no
   * `[DONE]`, yet no connection error either (a cut a proxy might make).
   */
  readonly endAfterChunks?: number;
  /** Leave out the closing `data: [DONE]` line (the stream just ends). */
  readonly omitDone?: boolean;
  /** Answer a streaming request with a whole JSON `chat.completion`, like servers that ignore `stream: true`. */
  readonly ignoreStream?: boolean;
  /** Send tool-call fragments without `index` (each call's fragments one after another). */
  readonly omitToolCallIndex?: boolean;
  /** Send the finish chunk's choice without a `delta` field. */
  readonly omitFinishDelta?: boolean;
  /**
   * Answer with this body exactly as it is, as `200 text/event-stream`, instead of encoding
   * the fields above: a real server's recorded answer replayed byte for byte
   * (test/fixtures/llama/). Only `delayMs` and `headers` still apply.
   */
  readonly rawSse?: string;
  /**
   * With `rawSse`: once the body is written, destroy the socket instead of ending the
   * response (a connection cut after those bytes, not a clean end).
   */
  readonly rawSseReset?: boolean;
}

/** A tool as a chat completion request declares it. */
export interface FakeRequestTool {
  readonly type: string;
  readonly function?: { readonly name: string; readonly description?: string; readonly parameters?: JsonObject };
}

/**
 * The JSON body of a request, with the fields the OpenAI client sends typed. Nothing is
 * checked beyond `model` and `messages`, so treat the typed fields as "what a correct
 * client sends". An unparseable body is recorded as `{}` (see `RecordedRequest.rawBody`).
 */
export interface FakeRequestBody {
  readonly model?: string;
  readonly messages?: readonly ChatMessage[];
  readonly tools?: readonly FakeRequestTool[];
  readonly tool_choice?: unknown;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly [key: string]: unknown;
}

/** Everything the server saw and did for one HTTP request, updated live. */
export interface RecordedRequest {
  /** Position in `FakeOpenAIServer.requests`, from 0. */
  readonly index: number;
  /** HTTP method. */
  readonly method: string;
  /** The URL path without the query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Request headers (lower-case names, as Node gives them). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (`{}` when it was not a JSON object). */
  readonly body: FakeRequestBody;
  /** The body as text. */
  readonly rawBody: string;
  /** `body.stream === true`. */
  readonly stream: boolean;
  /** The reply chosen for it (absent for requests answered with a 4xx before that). */
  readonly reply?: FakeReply;
  /** The HTTP status sent, once headers are out. */
  readonly status?: number;
  /**
   * The connection closed before the response ended: the client aborted, the reply asked
   * for a reset, or the server was closed.
   */
  readonly aborted: boolean;
  /** The full response was written. */
  readonly completed: boolean;
  /** `Date.now()` when the body had been read. */
  readonly startedAt: number;
  /** `Date.now()` when the response completed or the connection closed. */
  readonly endedAt?: number;
}

/** Chooses the reply to one request; may be async. A thrown error becomes a 500. */
export type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** Options of `FakeOpenAIServer.start`. */
export interface FakeServerOptions {
  /** Answers requests once the queued replies are used up. */
  readonly handler?: FakeHandler;
  /** Replies consumed in order before the handler is asked. */
  readonly replies?: readonly FakeReply[];
  /** Port to listen on; default 0 (any free port). */
  readonly port?: number;
  /**
   * Play a llama.cpp server with this context (tokens): `GET /props` announces it, and a chat
   * request whose prompt is longer (its JSON, four characters a token) gets llama.cpp's HTTP
   * 400 "exceeds the available context size" instead of a reply (no reply is used up).
   * Without it `/props` answers 404. Neither is recorded in `requests`; see `propsRequests`.
   */
  readonly contextSize?: number;
}
