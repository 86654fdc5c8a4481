import { ModelError } from './model-error.js';
import { streamedRefusalHint } from './to-model-error.js';

/** An error object a server sent in a response that began as a success: its words, maybe a code; or only words. */
export type WireError = string | { readonly message?: string; readonly code?: unknown };

/**
 * The failure of an error a server sent after answering 200 (an error object in a JSON body,
 * which some OpenAI-compatible proxies send; an error event in a stream), read as a 400's: its
 * words, its `code` when they do not say it (a refusal may be only `context_length_exceeded`,
 * which `contextExceeded` reads in the message), and the advice to set the window when it reads
 * like a refusal in words not known. `where`: how it came, e.g. "the stream reported an error".
 *
 * @example
 * ```ts
 * servedError('m', 'the stream reported an error', { message: 'too long', code: 'context_length_exceeded' });
 * // ModelError('model "m": the stream reported an error: too long (context_length_exceeded)')
 * ```
 */
export function servedError(model: string, where: string, error: WireError): ModelError {
  const said = typeof error === 'string' ? error : (error.message ?? JSON.stringify(error));
  const code = typeof error === 'object' && typeof error.code === 'string' && !said.includes(error.code) ? ` (${error.code})` : '';
  return new ModelError(`model "${model}": ${where}: ${said}${code}${streamedRefusalHint(said + code)}`);
}
