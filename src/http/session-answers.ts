import type { ServerResponse } from 'node:http';
import type { HarnessEngine } from '../engine/harness-engine.js';
import { isTaskSession } from '../engine/task-session-guard.js';
import { sessionTitle } from '../session/session-title.js';
import { UnsealedSessionError } from '../session/unsealed-session-error.js';
import { sendJson } from './http-answers.js';
import { HttpFailure } from './http-failure.js';
import { encodeCursor, honouredPage, sessionPageQuery } from './session-page.js';

/** What the conversation routes use of an engine; a custom `RunsEngine` may lack any of it (`404`). */
type SessionsEngine = Partial<Pick<HarnessEngine, 'sessions' | 'runs' | 'tasks'>>;

/**
 * `GET <base>/sessions?limit=&cursor=`: `200 { sessions, nextCursor? }`, a page of the
 * conversations the store lists, most recently active first; `nextCursor` (present when
 * there are more) asks for the next page. `400` for a bad `limit` or `cursor`.
 */
export async function listSessions(engine: SessionsEngine, query: string, res: ServerResponse): Promise<void> {
  const list = engine.sessions?.list?.bind(engine.sessions);
  if (!list) throw new HttpFailure(404, "this server's session store cannot list its sessions (it has no list())");
  const page = sessionPageQuery(query);
  // One more than the page: whether there is a next one.
  const listed = honouredPage(await list({ limit: page.limit + 1, ...(page.after ? { after: page.after } : {}) }), page);
  const sessions = listed.slice(0, page.limit);
  sendJson(res, 200, listed.length > page.limit ? { sessions, nextCursor: encodeCursor(sessions.at(-1)!) } : { sessions });
}

/**
 * `GET <base>/sessions/:id`: `200 { sessionId, title, messages, runs }`: its whole transcript
 * (the archive, compacted turns included, when the store keeps one) and the runs of it this
 * server knows, oldest first. `404` when the store holds nothing of it and no run of it is going,
 * and for a delegated task's session (no conversation: only its parent resumes it, through the task tool).
 */
export async function getSession(engine: SessionsEngine, sessionId: string, res: ServerResponse): Promise<void> {
  const store = engine.sessions;
  if (!store) throw new HttpFailure(404, 'this server keeps no sessions');
  if (await isTaskSession(sessionId, engine.tasks, store)) throw unknownSession(sessionId);
  const messages = await (store.loadArchive ? store.loadArchive(sessionId) : store.load(sessionId));
  const runs = engine.runs?.list({ sessionId }) ?? [];
  if (messages.length === 0 && !runs.some((run) => run.state === 'running')) throw unknownSession(sessionId);
  sendJson(res, 200, { sessionId, title: sessionTitle(messages), messages, runs });
}

/**
 * `DELETE <base>/sessions/:id`: forgets the conversation (its messages, archive and "always"
 * approvals, and its background results not yet delivered), `204`. `409` while a run of it is
 * going (cancel it first), `404` for a session the store does not hold or a delegated task's. A session whose
 * messages are not sealed with the user's key (planted, or from an older rxharness: the
 * store refuses to load it) is deleted too: deleting it is what its error tells the user to do. Through
 * `engine.sessions`, whose `delete` is the engine's: it forgets what the engine keeps in
 * memory too (see `forgettingSessions`).
 */
export async function deleteSession(engine: SessionsEngine, sessionId: string, res: ServerResponse): Promise<void> {
  const store = engine.sessions;
  if (!store?.delete) throw new HttpFailure(404, "this server's session store cannot delete sessions");
  const running = engine.runs?.list({ sessionId }).find((run) => run.state === 'running');
  if (running) throw new HttpFailure(409, `session "${sessionId}" has a run going (${running.runId}): cancel it first (DELETE .../runs/${running.runId})`);
  if ((await isTaskSession(sessionId, engine.tasks, store)) || !(await holds(store, sessionId))) throw unknownSession(sessionId);
  await store.delete(sessionId);
  sendJson(res, 204, undefined);
}

/** Whether the store holds messages of the session, loadable or not (unsealed ones count). */
async function holds(store: NonNullable<SessionsEngine['sessions']>, sessionId: string): Promise<boolean> {
  try {
    return (await store.load(sessionId)).length > 0;
  } catch (error) {
    if (UnsealedSessionError.isInstance(error)) return true;
    throw error;
  }
}

function unknownSession(sessionId: string): HttpFailure {
  return new HttpFailure(404, `unknown session "${sessionId}": this server holds no conversation of that id`);
}
