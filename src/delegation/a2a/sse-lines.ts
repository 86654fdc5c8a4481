const CR = 0x0d;
const LF = 0x0a;

/**
 * The longest line of a remote's event stream, in bytes: 4 MiB, the size `@a2a-js/sdk` allows
 * one event (`DEFAULT_MAX_SSE_EVENT_SIZE_BYTES`). A line held past it fails the stream.
 */
export const MAX_SSE_LINE_BYTES = 4 * 1024 * 1024;

/**
 * A remote's event stream as whole lines, each ending in `\n`, for `@a2a-js/sdk`'s reader:
 * - The SSE format ends a line with `\r\n`, `\n` or a bare `\r`; the reader splits at `\n`
 *   only, so a server ending its lines with `\r` seemed to send one line that never ended
 *   (its task "ended its stream without a final state"). Each ending becomes `\n`, however
 *   the stream is chunked: a `\r` that ends a chunk is held until the next one shows whether
 *   a `\n` follows (`\r\n` is one ending, split or not). Bytes, not text: a `\r` or `\n`
 *   byte is never part of a UTF-8 character.
 * - The reader appends each chunk to the unfinished line it holds and searches all of it
 *   again, so a long line dripped in small chunks cost time quadratic in its length (a 2 MB
 *   line in 1 KB chunks took 10 s of CPU). Only whole lines are passed on; an unfinished one
 *   is kept here (in a buffer that doubles), and one over {@link MAX_SSE_LINE_BYTES} fails
 *   the stream, which closes the connection.
 */
export function sseLines(): TransformStream<Uint8Array, Uint8Array> {
  let heldCr = false;
  // The unfinished line, its endings already made `\n`: `line[0, length)`.
  let line = new Uint8Array(0);
  let length = 0;
  const keep = (bytes: Uint8Array): void => {
    if (length + bytes.length > line.length) {
      const grown = new Uint8Array(Math.max(line.length * 2, length + bytes.length, 1024));
      grown.set(line.subarray(0, length));
      line = grown;
    }
    line.set(bytes, length);
    length += bytes.length;
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (chunk.length === 0) return;
      const out = heldCr || chunk.includes(CR) ? lfEndings(chunk) : chunk;
      const end = out.lastIndexOf(LF) + 1; // whole lines end here
      if (end === 0) {
        keep(out);
      } else {
        const whole = new Uint8Array(length + end);
        whole.set(line.subarray(0, length));
        whole.set(out.subarray(0, end), length);
        controller.enqueue(whole);
        if (line.length > 65_536) line = new Uint8Array(0); // a long line's buffer is not kept for the rest of the stream
        length = 0;
        keep(out.subarray(end));
      }
      if (length > MAX_SSE_LINE_BYTES) {
        controller.error(new Error(`its event stream sent a line that exceeded the maximum allowed size of ${MAX_SSE_LINE_BYTES} bytes (what one event may hold) without ending it: its reading was stopped`));
      }
    },
    flush(controller) {
      if (heldCr) keep(Uint8Array.of(LF));
      if (length > 0) controller.enqueue(line.slice(0, length));
    },
  });

  // `chunk` with `\r\n` and `\r` made `\n`, a `\r` it ends with held (`heldCr`) for the next chunk.
  function lfEndings(chunk: Uint8Array): Uint8Array {
    const out = new Uint8Array(chunk.length + 1);
    let n = 0;
    let i = 0;
    if (heldCr) {
      heldCr = false;
      out[n++] = LF;
      if (chunk[0] === LF) i = 1; // the `\n` of a `\r\n` split between chunks
    }
    for (; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte !== CR) out[n++] = byte;
      else if (i + 1 === chunk.length) heldCr = true; // a `\n` may start the next chunk
      else {
        out[n++] = LF;
        if (chunk[i + 1] === LF) i++;
      }
    }
    return out.subarray(0, n);
  }
}
