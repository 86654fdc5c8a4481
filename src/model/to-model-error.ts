import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
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
    return new ModelError(`model "${model}": HTTP ${error.status ?? '?'}: ${detail}${hint}${moved}`, {
      status: error.status,
      cause: error,
    });
  }
  return new ModelError(`model "${model}": the response could not be read (${causeChain(error)})`, { cause: error });
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
