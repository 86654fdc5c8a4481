/**
 * The most bytes of an MCP server's answer with an error status (not 2xx) that are read: the
 * SDK reads such a body whole into its error's message (a 40 MiB `500` was read whole, and
 * held as text), and the start of one says all it has to say.
 */
export const MCP_ERROR_BODY_MAX_BYTES = 64 * 1024;

/** What ends a body cut at {@link MCP_ERROR_BODY_MAX_BYTES}: the error's message says it was longer. */
export const MCP_ERROR_BODY_CUT = ` [error answer cut at ${MCP_ERROR_BODY_MAX_BYTES / 1024} KiB by rxharness]`;

const CONTINUATION = 0xc0; // the top two bits of a byte inside a UTF-8 character (10xxxxxx)

/**
 * The body of an answer with an error status, cut at `max` bytes (back to the start of a UTF-8
 * character) and ended by {@link MCP_ERROR_BODY_CUT}; the rest is not read (the server's
 * body is cancelled, so one that never ends stops there). Held until it ends or is cut, so
 * that the cut can go back into an earlier chunk: the SDK reads it whole anyway.
 *
 * @example
 * ```ts
 * const body = response.ok ? response.body : cutErrorBody(response.body);
 * ```
 */
export function cutErrorBody(body: ReadableStream<Uint8Array>, max = MCP_ERROR_BODY_MAX_BYTES): ReadableStream<Uint8Array> {
  const held: Uint8Array[] = [];
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        held.push(chunk);
        if ((size += chunk.length) <= max) return;
        const text = Buffer.concat(held, size);
        let end = max;
        while (end > 0 && (text[end]! & CONTINUATION) === 0x80) end--;
        controller.enqueue(text.subarray(0, end));
        controller.enqueue(new TextEncoder().encode(MCP_ERROR_BODY_CUT));
        held.length = size = 0;
        // Ends the body here, and cancels the server's: nothing more of it is read.
        controller.terminate();
      },
      flush(controller) {
        if (size > 0) controller.enqueue(Buffer.concat(held, size));
      },
    }),
  );
}
