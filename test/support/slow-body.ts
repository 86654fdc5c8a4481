/**
 * Requests whose bodies start and never end: a slow-loris client sending its body a byte at
 * a time. The HTTP slot tests hold a handler's slots with them and read the answers that
 * must come without the body.
 *
 * @module
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';

/** A request whose body started and never ends. */
export interface SlowBody {
  readonly req: ClientRequest;
  readonly answer: Promise<IncomingMessage>;
  /** Whether the headers and the first bytes of the body were written. */
  sent: boolean;
}

/** POSTs to `url` a JSON body announced as `length` bytes, of which only `start` is sent; `headers` go along (a token, say). */
export function slowBody(url: string, start = '{"jsonrpc":"2.0","id":1,', length = 100_000, headers: Record<string, string> = {}): SlowBody {
  const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(length) } });
  const answer = new Promise<IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject));
  answer.catch(() => undefined); // destroyed by the test
  const slow: SlowBody = { req, answer, sent: false };
  req.write(start, () => (slow.sent = true));
  return slow;
}

/** The answer to a request whose body never ended (it must come without it); the request is then dropped. */
export async function answerOf(slow: SlowBody): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const res = await slow.answer;
  let body = '';
  for await (const chunk of res) body += String(chunk);
  slow.req.destroy();
  return { status: res.statusCode!, headers: res.headers, body };
}
