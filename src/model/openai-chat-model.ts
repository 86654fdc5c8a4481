import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { asyncScheduler, catchError, defer, Observable, throwError, type SchedulerLike, type Subscriber } from 'rxjs';
import type { ChatModel, ChatRequest, ModelChunk } from './chat-model.js';
import { chatRequestBody } from './chat-request-body.js';
import { checkModelSettings, type ModelSettings } from './model-settings.js';
import { abortError, nodeHttpFetch } from './node-http-fetch.js';
import { notePartialReplyMarker } from './partial-reply.js';
import { readResponse } from './read-response.js';
import { replyLimitOf } from './reply-limit.js';
import { requestTurn } from './request-turns.js';
import { cancelOption, RequestCancel } from './request-cancel.js';
import type { ModelError } from './model-error.js';
import { retryModelRequest, type RetryPolicy } from './retry-policy.js';
import { refusesParallelCalls, singleToolCallBody } from './single-tool-calls.js';
import { serverContextSize } from './server-context-size.js';
import { toModelError } from './to-model-error.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { shownUrl } from '../text/shown-url.js';

/** Options of {@link OpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  /** The model id sent to the server, e.g. `gpt-4o-mini`. */
  readonly model: string;
  /** Server URL; default `OPENAI_BASE_URL`, then OpenAI's. Ignored when `client` is given. */
  readonly baseURL?: string;
  /**
   * Default `OPENAI_API_KEY`. Optional when a `baseURL` (or `OPENAI_BASE_URL`) is set: a local
   * server (llama.cpp, Ollama, vLLM) needs none, and then no `Authorization` header is sent.
   * Ignored when `client` is given.
   */
  readonly apiKey?: string;
  /**
   * A ready client (its fetch, headers and auth apply: the one way to use a proxy or a fetch
   * of your own). Without it, rxharness builds a client that sends over `node:http` /
   * `node:https` with kept-alive sockets (docs/models.md, "The HTTP transport"). Its `maxRetries` and `timeout` are
   * the defaults of the options below; its own retry loop is never used (its waits can
   * neither be capped nor cancelled).
   */
  readonly client?: OpenAI;
  /**
   * Retries of a request that failed before its response began: connection failures and
   * timeouts, 408, 409, 429 and 5xx (not 400, 401, 403, 404, 422, nor a 5xx saying the chat
   * template failed or the prompt does not fit). Default: the client's, 2.
   */
  readonly maxRetries?: number;
  /**
   * Milliseconds to wait for the response headers, and then the longest silence allowed
   * between two pieces of the stream or of a JSON body (an idle timeout: a long answer that
   * keeps streaming is never cut). Keep-alives (SSE comments, chunks that bring nothing of
   * the reply) break a silence, but hold a reply that brings nothing else for four times
   * this at most. Default: the client's timeout, 10 minutes. At most 2,147,483,647 (about
   * 24.8 days), the longest a timer holds.
   */
  readonly timeoutMs?: number;
  /** The longest wait before a retry, whatever the server's `Retry-After` asks; default 30,000, at most 2,147,483,647 (a timer's longest). */
  readonly maxRetryDelayMs?: number;
  /**
   * The most milliseconds the waits before the retries of one request may add up to; default
   * 60,000. A server still starting (HTTP 503, as llama-server's "Loading model", or a refused
   * connection) is waited for that long, beyond `maxRetries`, and a `warning` chunk (a run's
   * `Warning` event) says so once. 0: never wait for it. `maxRetries: 0` turns every retry off.
   */
  readonly retryBudgetMs?: number;
  /** Where retry waits and the idle watchdog run; default `asyncScheduler` (tests pass virtual time). */
  readonly scheduler?: SchedulerLike;
  /**
   * Default settings of every request (temperature, topP, maxTokens, toolChoice,
   * parallelToolCalls); an agent's own settings (a definition's front matter) win over them.
   */
  readonly settings?: ModelSettings;
  /** Extra body fields sent with every request, for what `settings` does not name (reasoning_effort...). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

/** The per-request options of the openai client. */
type RequestOptions = NonNullable<Parameters<OpenAI['chat']['completions']['create']>[1]>;

const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
const DEFAULT_RETRY_BUDGET_MS = 60_000;

/**
 * A {@link ChatModel} over the official `openai` client and any OpenAI-compatible server.
 * Each subscription streams one chat completion with tools, asks for usage in the stream,
 * assembles tool-call fragments (by index, or in order when a server sends none), and
 * reports `reasoning_content` / `reasoning` deltas as thinking; a server that answers with
 * a whole JSON completion instead is read the same way. The finish carries the server's
 * `finish_reason`. Unsubscribing aborts the HTTP request, or the wait before a retry.
 * Failures end the stream with a `ModelError` (with the HTTP status when there was one):
 * after the retries, on a silence longer than `timeoutMs`, when a stream ends with
 * neither a `finish_reason` nor `[DONE]` (it was cut), or when a reply brings more than its
 * request's `maxTokens` allows many times over, or than 8 MiB characters without it (a server
 * that ignores `max_tokens`, or loops; the request is aborted, never retried). A chat template that refuses parallel
 * tool calls ("only supports single tool-calls at once") gets the request once more with
 * `parallel_tool_calls: false` and earlier multi-call messages split, with a `warning`
 * chunk; the model then sends every request that way.
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
  /** The extra body fields sent with every request (the `extraBody` option); read by the engine to hold a workspace definition to the limits they set. */
  readonly extraBody: Readonly<Record<string, unknown>>;
  /** The default settings of every request (the `settings` option, checked). */
  readonly settings: ModelSettings;
  private readonly timeoutMs: number;
  private readonly scheduler: SchedulerLike;
  private readonly retry: RetryPolicy;
  /** Whether the client is rxharness's own, on the `node:http` transport: it is cancelled without a signal (see RequestCancel). */
  private readonly ownTransport: boolean;
  /** Set once the server's template refused parallel tool calls: every request is then sent in the single-call form. */
  private singleToolCalls = false;
  /** The server's answer about the context window, asked once (see {@link OpenAIChatModel.contextWindow}). */
  private serverWindow: Promise<number | undefined> | undefined;

  constructor(options: OpenAIChatModelOptions) {
    if (typeof options?.model !== 'string' || options.model.trim() === '') {
      throw new TypeError('OpenAIChatModel: `model` must be a non-empty string, e.g. "gpt-4o-mini"');
    }
    this.id = options.model;
    this.extraBody = options.extraBody ?? {};
    this.settings = options.settings === undefined ? {} : checkModelSettings(options.settings, 'OpenAIChatModel');
    this.scheduler = options.scheduler ?? asyncScheduler;
    const given = options.client;
    this.timeoutMs = whole('timeoutMs', options.timeoutMs ?? given?.timeout ?? OpenAI.DEFAULT_TIMEOUT, 1, MAX_TIMER_MS);
    const maxRetries = whole('maxRetries', options.maxRetries ?? given?.maxRetries ?? 2, 0);
    const maxDelayMs = whole('maxRetryDelayMs', options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS, 0, MAX_TIMER_MS);
    const budgetMs = whole('retryBudgetMs', options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS, 0);
    this.retry = { maxRetries, maxDelayMs, budgetMs, scheduler: this.scheduler };
    this.ownTransport = given === undefined;
    this.client = given ?? newClient(options.baseURL ?? process.env.OPENAI_BASE_URL, options.apiKey ?? process.env.OPENAI_API_KEY, this.timeoutMs);
    // Its reader counts what each reply brought and notes it on a failure: a step need not
    // count too (unless a subclass streams its own way).
    if (this.stream === OpenAIChatModel.prototype.stream) notePartialReplyMarker(this);
  }

  /** Streams one response: cold, one request (and its retries) per subscription. */
  stream(request: ChatRequest): Observable<ModelChunk> {
    return new Observable<ModelChunk>((out) => {
      const abort = new RequestCancel(this.ownTransport ? this.timeoutMs : undefined);
      const asked = chatRequestBody(this.id, request, this.extraBody, this.settings);
      const body = this.singleToolCalls ? singleToolCallBody(asked) : asked;
      let bodyRead = false;
      const onBodyRead = (): void => void (bodyRead = true);
      const limit = replyLimitOf(body);
      const context = { model: this.id, timeoutMs: this.timeoutMs, scheduler: this.scheduler, abort, onBodyRead, deltas: request.deltas !== false, limit };
      // Only the request is retried: once a response has begun its chunks go to `out` itself
      // (no operator in between on the hot path), and a body that breaks is never retried.
      const onServerWait = (error: ModelError, budgetMs: number): void => out.next(this.serverWait(error, budgetMs));
      const send$ = (sent: typeof body) => defer(() => this.send(sent, abort)).pipe(retryModelRequest(this.retry, onServerWait));
      const request$ = send$(body).pipe(catchError((error: unknown) => (refusesParallelCalls(error, body) ? this.singleCallsRetry$(error, body, send$, out) : throwError(() => error))));
      out.add(
        request$.subscribe({
          next: (response) => readResponse(response, context).subscribe(out),
          error: (error: unknown) => out.error(error),
        }),
      );
      // Unsubscribing aborts the request in flight; a retry wait is a timer that dies with it.
      // A response read to its end has nothing left to abort.
      return () => {
        if (!bodyRead) abort.abort();
      };
    });
  }

  /**
   * The context window: the `contextWindow` setting, else what the server announces at
   * `/props` (llama.cpp's `n_ctx` of a slot), asked once per model and kept; `undefined` when
   * neither says (OpenAI, vLLM and Ollama have no `/props`: their window is learned from a
   * context-exceeded error).
   */
  contextWindow(): number | Promise<number | undefined> {
    if (this.settings.contextWindow !== undefined) return this.settings.contextWindow;
    const key = this.client.apiKey;
    this.serverWindow ??= serverContextSize(this.client.baseURL, key && key !== 'none' ? key : undefined);
    return this.serverWindow;
  }

  /** The warning that the request waits for a server still starting. */
  private serverWait(error: ModelError, budgetMs: number): ModelChunk {
    // without a key it may carry (`user:pass@`, `?key=`): the warning reaches events, logs and the runs API
    const where = shownUrl(this.client.baseURL).replace(/\/+$/, '');
    return { type: 'warning', code: 'model-server-starting', message: `${error.message}: waiting up to ${Math.round(budgetMs / 1_000)} s (retryBudgetMs) for the server at ${where} to start` };
  }

  /** The one retry of a request whose template refused parallel tool calls; from now on every request is sent that way. */
  private singleCallsRetry$<T>(error: unknown, body: ChatCompletionCreateParamsStreaming, send$: (b: ChatCompletionCreateParamsStreaming) => Observable<T>, out: Subscriber<ModelChunk>): Observable<T> {
    this.singleToolCalls = true;
    const message = `${(error as ModelError).message}; sent again with parallel_tool_calls: false and one tool call per assistant message, as every later request of this model will be`;
    out.next({ type: 'warning', code: 'model-single-tool-calls', message });
    return send$(singleToolCallBody(body));
  }

  /**
   * One attempt: the client sends the request (auth, headers, error bodies) without retries
   * of its own, and hands back the response unread: its body is read by `readResponse` with
   * one linear pass of an SSE parser, because openai 6's decoder copies the rest of its
   * buffer for every event it finds (docs/performance.md).
   */
  private async send(body: ChatCompletionCreateParamsStreaming, cancel: RequestCancel): Promise<Response> {
    // Our transport takes the cancel itself; a fetch of the user's gets a signal.
    // Whole literals, not a spread of `stop` with more fields (a slow path of V8's: docs/performance.md, stop 42).
    const timeout = this.timeoutMs;
    const options: RequestOptions = this.ownTransport
      ? { fetchOptions: cancelOption<RequestOptions['fetchOptions']>(cancel), maxRetries: 0, timeout }
      : { signal: cancel.signal, maxRetries: 0, timeout };
    try {
      // A burst of starts takes turns with the reading of every other stream (request-turns.ts).
      await requestTurn(() => cancel.aborted);
      // The run left while the request waited: nothing is sent (nobody reads this error).
      if (cancel.aborted) throw abortError(undefined);
      return await this.client.chat.completions.create(body, options).asResponse();
    } catch (error) {
      throw toModelError(error, this.id, body.tools !== undefined, this.client.apiKey ?? undefined);
    }
  }
}

/**
 * A client without retries of its own. Without a key, a server of the user's own (a
 * `baseURL`) is asked without credentials; OpenAI's own API needs a key, which is said plainly.
 */
function newClient(baseURL: string | undefined, apiKey: string | undefined, timeout: number): OpenAI {
  // Our own node:http transport instead of the global fetch: a fraction of the memory and CPU
  // per request (docs/performance.md §11); a client the user passes keeps its own fetch.
  if (apiKey) return new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout, fetch: nodeHttpFetch });
  if (!baseURL) {
    throw new TypeError('OpenAIChatModel: no API key: pass `apiKey` or set OPENAI_API_KEY (a local server needs none: pass its `baseURL` instead)');
  }
  // The client insists on a credential; a null header tells it to send no Authorization at all.
  return new OpenAI({ baseURL, apiKey: 'none', defaultHeaders: { Authorization: null }, maxRetries: 0, timeout, fetch: nodeHttpFetch });
}

/**
 * `value` if it is an integer of at least `min` (else a TypeError naming the option) and at
 * most `max` (else a RangeError): options a timer is armed with pass MAX_TIMER_MS, above which
 * Node would fire it after 1 ms.
 */
function whole(name: string, value: number, min: number, max = Number.POSITIVE_INFINITY): number {
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(`OpenAIChatModel: \`${name}\` must be an integer of at least ${min}, got ${String(value)}`);
  }
  if (value > max) {
    throw new RangeError(`OpenAIChatModel: \`${name}\` must be at most ${max} ms (the longest a timer holds, about 24.8 days), got ${String(value)}`);
  }
  return value;
}
