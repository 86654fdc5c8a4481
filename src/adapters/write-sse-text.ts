import type { ServerResponse } from 'node:http';

/**
 * Writes `text` to a streaming response as one write to its socket, and returns what
 * `res.write` returns (`false`: the socket is full, wait for `'drain'`).
 *
 * Why not plain `res.write`: on a chunked body, Node writes every `res.write` to the socket
 * as four pieces (the size, CRLF, the text, CRLF), each one a `socket.write` with its own
 * entry in the socket's buffer, turned into a `writev` of four buffers. A server streaming a
 * thousand runs writes to some socket several thousand times a second, and one write instead
 * of four cut its CPU per event by about 5% (docs/performance.md §11, stop 40). Here the frame is
 * one string, `<size in hex>\r\n<text>\r\n`, exactly the bytes Node would have sent, written
 * with Node's own framing switched off for that one synchronous call and on again at once:
 * outside this function the response is Node's as before, so an `end()` from anywhere still
 * closes the body with its terminating chunk, and a body that is not chunked (an HTTP/1.0
 * client) is written unframed.
 *
 * @example
 * ```ts
 * writeSseHeaders(res);
 * if (!writeSseText(res, 'data: 1\n\n')) res.once('drain', more);
 * res.end('event: end\ndata: {}\n\n');
 * ```
 */
export function writeSseText(res: ServerResponse, text: string): boolean {
  // an empty chunk would be the body's end: nothing to frame (Node skips it too)
  if (!res.chunkedEncoding || text === '' || !res.headersSent) return res.write(text);
  res.chunkedEncoding = false;
  try {
    return res.write(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
  } finally {
    res.chunkedEncoding = true;
  }
}
