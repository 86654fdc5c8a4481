import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { contextExceeded } from './context-exceeded.js';
import { ModelError } from './model-error.js';

/**
 * Said after a server's error that is about the tools of a request that carried some: the
 * usual cause is a server (or model) started without tool calling.
 */
const NO_TOOLS_HINT =
  ' (the request offered tools, and this server seems not to accept them: start it with tool calling enabled, ' +
  'e.g. llama.cpp\'s llama-server with --jinja, vLLM with --enable-auto-tool-choice and a --tool-call-parser, ' +
  'or an Ollama model that supports tools; an agent given no tools sends none)';

/**
 * Said after a 400 that reads like a refusal of a request longer than the context window
 * (`unrecognisedRefusal`) in words `contextExceeded` does not know: the engine then learns no
 * window from it and compacts nothing, so each later turn of the session is refused the same
 * way; the window set by hand makes it compact before it sends.
 */
const SET_WINDOW_HINT =
  ' (if this says the request is longer than the model\'s context window: these words are not ones rxharness knows, ' +
  'so it cannot learn the window from them and compact the conversation; set the model\'s `contextWindow` setting ' +
  '(the CLI\'s --context-window) to the window in tokens, and the conversation is compacted before it is sent)';

/**
 * Turns whatever the `openai` client threw into a {@link ModelError} a user can act on.
 *
 * @param secret - the client's API key: a server or proxy that echoes the request's
 *   `Authorization` header in its error body would otherwise put it in the run's `RunEnd`,
 *   its spans and the CLI's output. Every occurrence is shown as `<api key>`.
 */
export function toModelError(error: unknown, model: string, sentTools = false, secret?: string): ModelError {
  const made = describe(error, model, sentTools);
  if (secret === undefined || secret.length < 8 || !made.message.includes(secret)) return made;
  return new ModelError(made.message.split(secret).join('<api key>'), { status: made.status, cause: error });
}

function describe(error: unknown, model: string, sentTools: boolean): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(`model "${model}": the request timed out`, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    // The client's own message is a generic "Connection error."; the reason is in its causes.
    return new ModelError(`model "${model}": connection failed (${causeChain(error.cause) || error.message})`, { cause: error });
  }
  if (error instanceof APIError) {
    // The client's message already starts with the status ("500 upstream failed"): say it once.
    const detail = error.message.replace(/^\d{3}\s+/, '');
    const hint = sentTools && /\btools?\b|tool_choice|function.?call/i.test(detail) ? NO_TOOLS_HINT : '';
    const moved = redirectHint(error);
    const window = unrecognisedRefusal(error, detail) ? SET_WINDOW_HINT : '';
    return new ModelError(`model "${model}": HTTP ${error.status ?? '?'}: ${detail}${hint}${moved}${window}`, {
      status: error.status,
      cause: error,
    });
  }
  return new ModelError(`model "${model}": the response could not be read (${causeChain(error)})`, { cause: error });
}

/**
 * Whether a 400 reads like a refusal of a request too long for the context window that
 * `contextExceeded` does not recognise (see {@link readsLikeRefusal}).
 */
function unrecognisedRefusal(error: InstanceType<typeof APIError>, detail: string): boolean {
  return error.status === 400 && readsLikeRefusal(detail) && contextExceeded(error) === undefined;
}

/**
 * The advice to set the window, for an error a stream reported in the middle of a reply, or a
 * 200 JSON body held (`said`: its words), that reads like a refusal of a request too long for
 * the context window in words `contextExceeded` does not know; `''` for any other. A refusal
 * sent so, not as a 400, leaves a session refused the same way.
 */
export function streamedRefusalHint(said: string): string {
  return readsLikeRefusal(said) && contextExceeded(new Error(said)) === undefined ? SET_WINDOW_HINT : '';
}

/**
 * Whether words read like a refusal of a request too long for the context window: they speak
 * of tokens and of context or length, or name the context window, length or size. A
 * `max_tokens` too large (`max_tokens` is no word "tokens") or a limit of tokens a minute (no
 * context, no length) does not read so.
 */
function readsLikeRefusal(detail: string): boolean {
  return (/\btokens?\b/i.test(detail) && /\bcontext\b|\blength\b/i.test(detail)) || /\bcontext (?:window|length|size)\b/i.test(detail);
}

/**
 * A redirect is not followed (a model request is a POST, which a redirect may turn into a
 * GET): said with where it points, so that the user can set `baseURL` there.
 */
function redirectHint(error: InstanceType<typeof APIError>): string {
  const status = error.status ?? 0;
  if (status < 300 || status > 399) return '';
  const location = error.headers?.get('location');
  return ` (the server redirects${location ? ` to ${location}` : ''}; model requests do not follow redirects: set \`baseURL\` to the address it points to)`;
}

/**
 * The messages of an error and its causes, outermost first: fetch wraps the useful part
 * (`connect ECONNREFUSED ...`, `other side closed`) in generic errors (`fetch failed`, `terminated`).
 */
function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current = error;
  while (current !== undefined && current !== null && parts.length < 5) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}
