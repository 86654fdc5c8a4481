import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `Connection: close` for the answer to a request whose body has not come in full (it has a
 * `Content-Length` other than 0, or a `Transfer-Encoding`), else nothing; for the refusals,
 * which read no body. Node would read and drop that body after the answer, keeping the socket
 * for as long as its client trickles it in (up to the server's request timeout): a flood of
 * such refused requests would hold as many sockets. The routes' failures (`sendFailure`) and
 * `rxharness serve`'s own refusals add it; the `429` of a taken run slot closes its
 * connection for the same reason. A request without a body keeps its connection. A body sent
 * in the same packet as the headers counts as not come too: Node parses it only after the
 * request's handler returns.
 *
 * @example
 * ```ts
 * res.writeHead(404, { 'content-type': 'text/plain', ...closeIfBodyUnread(res) });
 * ```
 */
export function closeIfBodyUnread(res: ServerResponse): Readonly<Record<string, string>> {
  const req = res.req as IncomingMessage | undefined;
  if (req === undefined || req.complete) return {};
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
  return hasBody ? CLOSE : {};
}

const CLOSE = { connection: 'close' } as const;
