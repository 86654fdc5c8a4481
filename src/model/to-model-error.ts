import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { ModelError } from './model-error.js';

/** Turns whatever the `openai` client threw into a {@link ModelError} a user can act on. */
export function toModelError(error: unknown, model: string): ModelError {
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
    return new ModelError(`model "${model}": HTTP ${error.status ?? '?'}: ${detail}`, {
      status: error.status,
      cause: error,
    });
  }
  return new ModelError(`model "${model}": the response could not be read (${causeChain(error)})`, { cause: error });
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
