import type { JsonObject } from '../../../src/events/json.js';

interface ErrorKind {
  readonly type: string;
  readonly code: string | null;
  readonly message: string;
}

/** The `type`/`code` OpenAI uses for common statuses, with a default message. */
const KINDS: Readonly<Record<number, ErrorKind>> = {
  400: { type: 'invalid_request_error', code: null, message: 'Bad request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Forbidden.' },
  404: { type: 'invalid_request_error', code: null, message: 'Not found.' },
  408: { type: 'timeout', code: null, message: 'Request timed out.' },
  409: { type: 'invalid_request_error', code: null, message: 'Conflict.' },
  422: { type: 'invalid_request_error', code: null, message: 'Unprocessable entity.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again later.' },
};

const SERVER_ERROR: ErrorKind = {
  type: 'server_error',
  code: null,
  message: 'The server had an error while processing your request. Sorry about that!',
};

/**
 * An OpenAI-style error body: `{ error: { message, type, param, code } }`.
 *
 * @example
 * ```ts
 * errorBody(429); // { error: { message: 'Rate limit reached...', type: 'requests', param: null, code: 'rate_limit_exceeded' } }
 * ```
 */
export function errorBody(status: number, message?: string): JsonObject {
  const kind = KINDS[status] ?? (status >= 500 ? SERVER_ERROR : { ...SERVER_ERROR, type: 'invalid_request_error' });
  return { error: { message: message ?? kind.message, type: kind.type, param: null, code: kind.code } };
}
