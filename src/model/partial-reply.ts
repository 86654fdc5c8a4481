/**
 * What the response of a failed model request had brought before it failed, kept beside its
 * error rather than on it (internal: no public error type grows a field for it). Only a
 * request whose response began (a 2xx answer, so the server took the prompt) is marked: its
 * token budget is charged an estimate of it (see `failedRequestTokens`), while a request
 * refused with an error status, or that never reached a server, processed nothing.
 */
const partial = new WeakMap<object, number>();

/** Notes that `error` ended a response that had begun, after `chars` characters of text, reasoning and tool-call arguments. */
export function markPartialReply(error: unknown, chars: number): void {
  if (typeof error === 'object' && error !== null) partial.set(error, chars);
}

/** The characters the response `error` ended had brought, or undefined when no response had begun. */
export function partialReplyChars(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? partial.get(error) : undefined;
}
