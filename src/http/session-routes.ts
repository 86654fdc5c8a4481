import type { ServerResponse } from 'node:http';
import type { HarnessEngine } from '../engine/harness-engine.js';
import { sendJson } from './http-answers.js';
import { HttpFailure } from './http-failure.js';
import { isTaskSession, isTaskSessionRefusal } from '../engine/task-session-guard.js';
import { isSessionId } from './request-bodies.js';
import type { RunSlots } from './run-slots.js';
import { deleteSession, getSession, listSessions } from './session-answers.js';

/**
 * A request to the session routes: `GET <base>/sessions` (with its query, `limit` and
 * `cursor`), `GET` or `DELETE <base>/sessions/:id`, `POST <base>/sessions/:id/compact`,
 * `GET <base>/sessions/:id/archive`.
 */
export type SessionRoute =
  | { readonly kind: 'list'; readonly query: string }
  | { readonly kind: 'compact' | 'archive' | 'get' | 'delete'; readonly sessionId: string }
  | { readonly kind: 'method'; readonly allow: string }
  /** An id no conversation can have (`404`), or a segment that is no percent-encoding (`malformed`: `400`). */
  | { readonly kind: 'bad-id'; readonly id: string; readonly malformed?: true };

type Action = { readonly kind: 'compact' | 'archive' | 'get' | 'delete'; readonly method: string };
const ACTIONS: Readonly<Record<string, Action>> = {
  compact: { kind: 'compact', method: 'POST' },
  archive: { kind: 'archive', method: 'GET' },
};
/** `<base>/sessions/<id>` by method. */
const ONE_SESSION: Readonly<Record<string, Action>> = {
  GET: { kind: 'get', method: 'GET' },
  DELETE: { kind: 'delete', method: 'DELETE' },
};

/**
 * Matches `<basePath>/sessions`, `<basePath>/sessions/<id>`, `<basePath>/sessions/<id>/compact`
 * and `<basePath>/sessions/<id>/archive`; any other path is not theirs (`undefined`). The id
 * is matched before it is decoded (so an id with `/`, sent as `%2F`, stays one segment), then
 * checked with the rule every start uses ({@link isSessionId}): any conversation started can be reached.
 *
 * @example
 * ```ts
 * matchSessionRoute('POST', '/api/sessions/ses_1/compact', '/api'); // { kind: 'compact', sessionId: 'ses_1' }
 * ```
 */
export function matchSessionRoute(method: string | undefined, url: string | undefined, basePath: string): SessionRoute | undefined {
  const [path = '/', query = ''] = (url ?? '/').split('#', 1)[0]!.split(/\?(.*)/s, 2);
  if (path === `${basePath}/sessions`) return method === 'GET' ? { kind: 'list', query } : { kind: 'method', allow: 'GET' };
  if (!path.startsWith(`${basePath}/sessions/`)) return undefined;
  const parts = path.slice(basePath.length).split('/');
  const action = parts.length === 4 ? ACTIONS[parts[3]!] : parts.length === 3 ? ONE_SESSION[method ?? ''] : undefined;
  if (parts.length === 3 && parts[2] !== '' && action === undefined) return { kind: 'method', allow: 'GET, DELETE' };
  if (!action || parts[2] === '') return undefined;
  if (method !== action.method) return { kind: 'method', allow: action.method };
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(parts[2]!);
  } catch {
    return { kind: 'bad-id', id: parts[2]!.slice(0, 80), malformed: true }; // `%zz`, or escapes that are no UTF-8
  }
  if (!isSessionId(sessionId)) return { kind: 'bad-id', id: sessionId.slice(0, 80) };
  return { kind: action.kind, sessionId };
}

/**
 * Runs one compaction for the request answered by `res`, and answers its `Compaction` event.
 * Its summary is a model request, so it holds a slot of `slots` (the runs': `maxRuns`) until
 * it settles, however it ends; with none free it is refused as a run is (`429`, `Retry-After`):
 * else a token holder could start model requests without bound, one session each.
 * A client that goes away stops it (its summary request is aborted): it would otherwise hold
 * the session, and the model, until the request's idle timeout (10 minutes by default), for
 * an answer nobody reads. A delegated task's session is no conversation: `compact` refuses it
 * (it asks, once), answered `404` as the other routes answer it.
 */
async function compactForClient(compact: HarnessEngine['compact'], sessionId: string, res: ServerResponse, slots: RunSlots): Promise<void> {
  if (res.destroyed) return; // the client left while it was authorised
  const release = slots.take();
  const gone = new AbortController();
  const stop = (): void => gone.abort(new Error('the client closed the connection before the compaction ended'));
  res.once('close', stop);
  try {
    sendJson(res, 200, await compact(sessionId, { signal: gone.signal }));
  } catch (error) {
    throw isTaskSessionRefusal(error) ? noSession(sessionId) : error;
  } finally {
    res.off('close', stop);
    release();
  }
}

/**
 * Answers a session route: `list`, `get` and `delete` as `session-answers.ts` says; `compact` runs `engine.compact` and answers `200` with its
 * `Compaction` event (`409` while a run uses the session; `429` when every slot of `slots` is taken; the runs handler refuses, `415`, a `POST`
 * not sent as `application/json`; a client that closes the connection first stops it); `archive` answers the session's
 * whole transcript (`{ sessionId, messages }`). An engine without them (a custom
 * `RunsEngine`) answers `404`.
 */
export async function serveSessionRoute(engine: object, route: SessionRoute, res: ServerResponse, slots: RunSlots): Promise<void> {
  const sessions = engine as Partial<Pick<HarnessEngine, 'compact' | 'sessions' | 'runs' | 'tasks'>>;
  switch (route.kind) {
    case 'list':
      return listSessions(sessions, route.query, res);
    case 'get':
      return getSession(sessions, route.sessionId, res);
    case 'delete':
      return deleteSession(sessions, route.sessionId, res);
    case 'method':
      throw new HttpFailure(405, `method not allowed here; use ${route.allow}`, { allow: route.allow });
    case 'bad-id':
      if (route.malformed) throw new HttpFailure(400, `the session id in the path is not percent-encoded UTF-8 (${JSON.stringify(route.id)}): encode it with encodeURIComponent`);
      throw noSession(route.id);
    case 'compact':
      // No body is read: the runs handler checked its type, as for every POST (a page of another site cannot send it).
      if (typeof sessions.compact !== 'function') throw new HttpFailure(404, 'this server cannot compact sessions');
      return compactForClient(sessions.compact.bind(sessions), route.sessionId, res, slots);
    case 'archive': {
      const load = sessions.sessions?.loadArchive?.bind(sessions.sessions);
      if (!load) throw new HttpFailure(404, 'this server keeps no session archive');
      // A delegated task's session is no conversation (its transcript holds its parent's prompt).
      if (await isTaskSession(route.sessionId, sessions.tasks, sessions.sessions!)) throw noSession(route.sessionId);
      return sendJson(res, 200, { sessionId: route.sessionId, messages: await load(route.sessionId) });
    }
  }
}

function noSession(sessionId: string): HttpFailure {
  return new HttpFailure(404, `no session ${JSON.stringify(sessionId)}`);
}
