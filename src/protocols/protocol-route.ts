import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorizeRequest } from '../http/authorize-request.js';
import { sendFailure } from '../http/http-answers.js';
import { HttpFailure } from '../http/http-failure.js';
import type { ResolvedProtocolOptions } from './protocol-options.js';

/**
 * A protocol's Node request handler: `true` when it took the request (it answers, now or
 * later), `false` when it left it alone (another path, see `ProtocolHandlerOptions.path`).
 * Works with `http.createServer`, Express (`app.post(path, handler)`) and Fastify (the raw
 * request and response).
 */
export type ProtocolRequestHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => boolean;

/**
 * The handler around a protocol's `serve`: the path, `POST` only (`405` else), the
 * `authorize` check (`401`) before anything is read, and failures answered as JSON
 * `{ error }` with their status (`sendFailure`, as the runs routes answer them).
 */
export function protocolRoute(o: ResolvedProtocolOptions, serve: (req: IncomingMessage, res: ServerResponse) => Promise<void>): ProtocolRequestHandler {
  return (req, res, next) => {
    if (o.path !== undefined && (req.url ?? '/').split('?', 1)[0] !== o.path) {
      next?.();
      return false;
    }
    if (req.method !== 'POST') {
      sendFailure(res, new HttpFailure(405, `method ${req.method ?? '?'} is not allowed here; use POST`, { allow: 'POST' }));
      return true;
    }
    authorizeRequest(req, o.authorize)
      .then(() => serve(req, res))
      .catch((error: unknown) => sendFailure(res, error));
    return true;
  };
}
