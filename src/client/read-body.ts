/** A body's text as far as it was read, and whether that was all of it. */
export interface BodyText {
  /** The text of the bytes read (a character cut at the limit is left out). */
  readonly text: string;
  /** False when the body was longer than the limit: the rest was not read. */
  readonly whole: boolean;
}

/**
 * Reads at most `maxBytes` of a response's body, then cancels the rest: an answer, or an
 * error page, that never ends (a broken proxy, a hostile server) must not fill memory. One
 * that trickles in below the cap is read for as long as it lasts, unless `signal` aborts:
 * then the read stops and rejects with its reason (also when the body itself ignores it).
 *
 * @example
 * ```ts
 * const { text, whole } = await readBodyText(response, 4096);
 * ```
 */
export async function readBodyText(response: Response, maxBytes: number, signal?: AbortSignal): Promise<BodyText> {
  if (response.body === null) return { text: '', whole: true };
  // Given up before reading: the body is cancelled, or its server could trickle it for ever.
  if (signal?.aborted) await dropBodyAndThrow(response, signal);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  // A cancelled read ends as if the body had: the check after each read tells the two apart.
  const stop = (): void => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) return { text: text + decoder.decode(), whole: true };
      const room = maxBytes - read;
      read += value.length;
      if (value.length > room) {
        text += decoder.decode(value.subarray(0, room), { stream: true });
        return { text, whole: false };
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    // done with it either way (the rest of a long body is not wanted); a body already ended ignores this
    reader.cancel().catch(() => undefined);
  }
}

/**
 * Cancels `response`'s body (its connection is let go) and throws `signal`'s reason: for a
 * caller who gave up while the answer was on its way. A `fetch` of the caller's own may have
 * answered without honouring the signal, and a body nobody reads or cancels keeps its socket
 * for as long as the server trickles it.
 *
 * @example
 * ```ts
 * if (signal?.aborted) await dropBodyAndThrow(response, signal);
 * ```
 */
export async function dropBodyAndThrow(response: Response, signal: AbortSignal): Promise<never> {
  await response.body?.cancel(signal.reason).catch(() => undefined);
  throw signal.reason;
}
