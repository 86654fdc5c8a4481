import type { ServerResponse } from 'node:http';
import { DEFAULT_DRAIN_TIMEOUT_MS, destroyUnlessDrained } from '../../adapters/drain-deadline.js';
import { eventStreamResponse } from '../event-stream-response.js';

/** A JSON-RPC answer of the SDK's transport handlers: one envelope, or a stream of them. */
export type RpcAnswer = object | AsyncGenerator<object, void, undefined>;

/** A JSON-RPC error envelope. */
export function rpcError(id: string | number | null, code: number, message: string): object {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/**
 * Writes one envelope as JSON with `status`. A client that does not take it all within 30 s
 * is cut (`destroyUnlessDrained`): an unread answer must not keep its socket and bytes.
 */
export function writeRpcJson(res: ServerResponse, status: number, envelope: object, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(envelope);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store', ...headers });
  res.end(text);
  destroyUnlessDrained(res, DEFAULT_DRAIN_TIMEOUT_MS);
}

/** What becomes of an answer's stream once its client has left (or was cut). */
export type AfterLeave =
  /** Closed: a subscription to a task (`tasks/resubscribe`), which only relays what others store. */
  | 'close'
  /**
   * Read to its end, unwritten: the stream of a message, which is what stores its task's
   * updates (the SDK's `sendMessageStream` saves each event before it yields it). Closed, it
   * would leave the task `working` in the store for ever, though its run goes on and ends.
   */
  | 'read-to-end';

/**
 * Writes the SDK's answer: an envelope as JSON, a stream as server-sent events (one
 * `data:` envelope each, a `: keep-alive` comment every `keepAliveMs` of silence so proxies
 * keep the connection, 0 for none). Writes honour backpressure as every other stream of
 * ours does (`eventStreamResponse`): a client that stops reading is cut once its unread
 * backlog passes the bound, instead of the backlog growing in memory. A client that leaves
 * (or is cut) stops the writing, not the task (A2A tasks outlive their streams;
 * `tasks/cancel` stops one): `afterLeave` says whether the stream is then closed or read to
 * its end unwritten, so the task it stores still reaches its final state. A stream that
 * fails ends with its error as one more envelope. Resolves when done, never rejects.
 */
export async function writeRpcAnswer(res: ServerResponse, answer: RpcAnswer, keepAliveMs: number, errorEnvelope: (error: unknown) => object, afterLeave: AfterLeave = 'close'): Promise<void> {
  if (!(Symbol.asyncIterator in answer)) return writeRpcJson(res, 200, answer);
  const stream = answer;
  const out = eventStreamResponse(res, {}, keepAliveMs);
  const left = (): void => void stream.return(undefined);
  if (afterLeave === 'close') res.once('close', left);
  try {
    for await (const envelope of stream) {
      if (!res.destroyed) out.send(envelope);
      else if (afterLeave === 'close') break;
    }
  } catch (error) {
    // The stream's last word: the error as a JSON-RPC envelope (the SDK client throws it).
    if (!res.destroyed) out.send(errorEnvelope(error));
  } finally {
    res.off('close', left);
    out.end();
  }
}
