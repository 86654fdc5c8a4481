import type { IncomingMessage } from 'node:http';
import { HttpFailure } from './http-failure.js';
import type { RunsAuthorizer } from './runs-handler-options.js';

/**
 * Resolves when `authorize` (if any) lets the request through; else rejects with a `401`
 * that says how to get in. Shared by every route that starts or reads runs (the runs
 * routes and the protocol handlers), so one token guards them all.
 */
export async function authorizeRequest(req: IncomingMessage, authorize: RunsAuthorizer | undefined): Promise<void> {
  if (authorize === undefined || (await authorize(req)) === true) return;
  throw new HttpFailure(401, 'not authorized: send the credentials this server asks for (e.g. "Authorization: Bearer <token>")', {
    'www-authenticate': 'Bearer',
  });
}
