import type { NodeBody } from './node-http-response.js';

/**
 * Where a streamed body comes from: the Node stream of the `node:http` transport (read by
 * `data` events: no promise per read), or the web stream of any other fetch (a custom client).
 */
export type BodySource = NodeBody | ReadableStream<Uint8Array>;

/**
 * Hands the body to `onText` as it arrives, decoded by one streaming `TextDecoder` (a
 * character split across reads comes whole), and resolves at its end. When `onText` throws,
 * or the body fails, the body is stopped (the Node stream destroyed, with its socket; the web
 * stream cancelled) and the promise rejects with that error.
 */
export function readBodyText(source: BodySource, onText: (text: string) => void): Promise<void> {
  return source instanceof ReadableStream ? readWeb(source, onText) : readNode(source, onText);
}

async function readWeb(body: ReadableStream<Uint8Array>, onText: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) onText(decoder.decode(read.value, { stream: true }));
    const tail = decoder.decode();
    if (tail) onText(tail);
  } catch (error) {
    reader.cancel().catch(() => undefined); // a failed event stops the body, like a broken one
    throw error;
  }
}

function readNode(body: NodeBody, onText: (text: string) => void): Promise<void> {
  const { stream } = body;
  return new Promise<void>((resolve, reject) => {
    const decoder = new TextDecoder();
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      stream.destroy();
      reject(error);
    };
    stream.on('data', (bytes: Buffer) => {
      if (settled) return;
      try {
        onText(decoder.decode(bytes, { stream: true }));
      } catch (error) {
        fail(error);
      }
    });
    stream.once('end', () => {
      if (settled) return;
      try {
        const tail = decoder.decode();
        if (tail) onText(tail);
      } catch (error) {
        fail(error);
        return;
      }
      settled = true;
      resolve();
    });
    stream.once('error', (error) => fail(body.failure(error)));
    // Closed without an end or an error: destroyed (an abort), or a socket that went away.
    stream.once('close', () => fail(body.failure(new Error('the body closed before its end'))));
  });
}
