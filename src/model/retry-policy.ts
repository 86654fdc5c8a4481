import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { defer, retry, throwError, timer, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import { ModelError } from './model-error.js';

/** How {@link retryModelRequest} retries. */
export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  readonly maxRetries: number;
  /** The longest wait before a retry, whatever the server's `Retry-After` asks. */
  readonly maxDelayMs: number;
  /** Where the waits are scheduled (a virtual-time scheduler in tests). */
  readonly scheduler: SchedulerLike;
  /** Jitter source in [0, 1); default `Math.random`. */
  readonly random?: () => number;
  /**
   * The most milliseconds all the waits of one request may add up to. A server still
   * starting (HTTP 503, or a refused connection) is retried until then even beyond
   * `maxRetries` (unless `maxRetries` is 0: no retries at all). Absent: no total limit, and
   * such a server gets `maxRetries` retries like any other failure.
   */
  readonly budgetMs?: number;
}

/** Told once per request, before its first wait for a server that is still starting. */
export type OnServerWait = (error: ModelError, budgetMs: number) => void;

/**
 * A 5xx whose message says the prompt could not be built (a chat template that fails on
 * these messages) or does not fit the model: the same request fails the same way every time,
 * so retrying only wastes the user's time. Servers say so in their own words: llama.cpp and
 * LM Studio name the (Jinja) template or the context size, Ollama's Go templates fail with
 * "template: ...", vLLM and OpenAI name the maximum context length; a template that takes one
 * tool call at a time says so (the model then retries once in that form, see single-tool-calls.ts).
 */
const DETERMINISTIC_5XX = /\btemplate\b|jinja|context (?:length|window|size)|maximum context|prompt is too long|too many tokens|single tool-calls/i;

/** Statuses worth another try: request timeout, conflict (a lock), rate limit; and any 5xx. */
const TRANSIENT_4XX: ReadonlySet<number> = new Set([408, 409, 429]);

/**
 * Retries a failed model request (an Observable of one response that errors with a
 * `ModelError`) the way {@link OpenAIChatModel} does: only transient failures (connection
 * failures and timeouts, 408, 409, 429, 5xx but those of {@link DETERMINISTIC_5XX}; the
 * server's `x-should-retry` header wins), at most `maxRetries` times, after the server's
 * `Retry-After` / `retry-after-ms` or else an exponential backoff (0.5 s, 1 s, 2 s... up to
 * 8 s, minus up to 25% jitter), never longer than `maxDelayMs`; with a `budgetMs`, a server
 * still starting ({@link isServerStarting}) is waited for beyond `maxRetries`, all the waits
 * of the request together never longer than the budget, and `onServerWait` is told before the
 * first such wait (once per request). Each wait is a timer on the
 * policy's scheduler, so unsubscribing cancels it at once. When it gives up after retries,
 * the error says how many attempts were made.
 *
 * @example
 * ```ts
 * request$.pipe(retryModelRequest({ maxRetries: 2, maxDelayMs: 30_000, scheduler: asyncScheduler }));
 * ```
 */
export function retryModelRequest<T>(policy: RetryPolicy, onServerWait?: OnServerWait): MonoTypeOperatorFunction<T> {
  return (source$) =>
    defer(() => {
      // Per subscription: what this request has waited so far, and whether it said why.
      let waited = 0;
      let told = false;
      return source$.pipe(
        retry({
          delay: (error: unknown, retryNumber: number) => {
            const starting = policy.budgetMs !== undefined && policy.maxRetries > 0 && isServerStarting(error);
            const left = (policy.budgetMs ?? Infinity) - waited;
            const wanted = starting || retryNumber <= policy.maxRetries ? retryDelayMs(error, retryNumber, policy) : undefined;
            if (wanted === undefined || left <= 0) return throwError(() => (retryNumber > 1 ? gaveUp(error, retryNumber, policy, waited) : error));
            const wait = Math.min(wanted, left);
            waited += wait;
            if (starting && !told) {
              told = true;
              onServerWait?.(error as ModelError, policy.budgetMs!);
            }
            return timer(wait, policy.scheduler);
          },
        }),
      );
    });
}

/**
 * A server that is still starting: llama-server answers `503 Loading model` (without
 * `Retry-After`) while it loads, and before it listens at all the connection is refused.
 *
 * @example
 * ```ts
 * isServerStarting(toModelError(error, 'm')); // true for a 503 or ECONNREFUSED
 * ```
 */
export function isServerStarting(error: unknown): boolean {
  if (!(error instanceof ModelError)) return false;
  if (error.status === 503) return true;
  const cause = error.cause;
  return cause instanceof APIConnectionError && !(cause instanceof APIConnectionTimeoutError) && /ECONNREFUSED/.test(error.message);
}

/** How long to wait before retry number `retryNumber` (from 1), or `undefined`: do not retry. */
function retryDelayMs(error: unknown, retryNumber: number, policy: RetryPolicy): number | undefined {
  if (!(error instanceof ModelError)) return undefined;
  const cause = error.cause;
  // Includes the client's APIConnectionTimeoutError: no headers within timeoutMs.
  if (cause instanceof APIConnectionError) return Math.min(backoffMs(retryNumber, policy), policy.maxDelayMs);
  if (!(cause instanceof APIError) || cause.status === undefined || !isTransient(cause)) return undefined;
  return Math.min(askedDelayMs(cause.headers) ?? backoffMs(retryNumber, policy), policy.maxDelayMs);
}

function isTransient(error: APIError): boolean {
  const told = error.headers?.get('x-should-retry');
  if (told === 'true') return true;
  if (told === 'false') return false;
  const status = error.status ?? 0;
  if (TRANSIENT_4XX.has(status)) return true;
  return status >= 500 && !DETERMINISTIC_5XX.test(error.message);
}

/** The client's own schedule: 0.5 s doubling up to 8 s, less up to a quarter of jitter. */
function backoffMs(retryNumber: number, policy: RetryPolicy): number {
  const base = Math.min(500 * 2 ** (retryNumber - 1), 8_000);
  return base * (1 - (policy.random ?? Math.random)() * 0.25);
}

/** What `retry-after-ms` (milliseconds) or `Retry-After` (seconds or an HTTP date) asks for. */
function askedDelayMs(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** The last error, saying how many attempts were made and, when it was capped, what the server asked. */
function gaveUp(error: unknown, attempts: number, policy: RetryPolicy, waited: number): unknown {
  if (!(error instanceof ModelError)) return error;
  const asked = error.cause instanceof APIError ? askedDelayMs(error.cause.headers) : undefined;
  const capped = asked !== undefined && asked > policy.maxDelayMs;
  const note = capped ? `; the server asked to wait ${Math.round(asked / 1_000)} s, more than the ${policy.maxDelayMs} ms cap` : '';
  const spent = policy.budgetMs !== undefined && waited >= policy.budgetMs ? `; waited ${seconds(waited)} s in all, the whole retry budget (retryBudgetMs)` : '';
  return new ModelError(`${error.message} (gave up after ${attempts} attempts${note}${spent})`, { status: error.status, cause: error.cause });
}

/** Milliseconds as seconds for a message: `1.3`, `60`. */
function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
