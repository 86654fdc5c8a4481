import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { ModelError } from './model-error.js';

/** Turns whatever the `openai` client threw into a {@link ModelError} a user can act on. */
export function toModelError(error: unknown, model: string): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(`model "${model}": the request timed out`, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    const why = error.cause instanceof Error ? error.cause.message : error.message;
    return new ModelError(`model "${model}": connection failed (${why})`, { cause: error });
  }
  if (error instanceof APIError) {
    return new ModelError(`model "${model}": HTTP ${error.status ?? '?'}: ${error.message}`, {
      status: error.status,
      cause: error,
    });
  }
  const why = error instanceof Error ? error.message : String(error);
  return new ModelError(`model "${model}": the response could not be read (${why})`, { cause: error });
}
