import type { ChatMessage } from '../model/chat-message.js';
import type { RunInfo } from '../runs/run-types.js';
import type { SessionSummary } from '../session/session-store.js';
import { idSegment } from './path-segment.js';
import { send, wrongAnswer, type RequestOptions } from './run-requests.js';

/** What `GET <baseUrl>/sessions/:id` answers: a conversation with its transcript and runs. */
export interface SessionDetails {
  /** The conversation's id. */
  readonly sessionId: string;
  /** Its first user message on one line (`''` when it has none). */
  readonly title: string;
  /** Its whole transcript, in order (compacted turns included when the server's store keeps an archive). */
  readonly messages: readonly ChatMessage[];
  /** The runs of it the server knows, oldest first (one may still be running). */
  readonly runs: readonly RunInfo[];
}

/** The URL of the conversations (or of one) under `baseUrl`, e.g. `/api/sessions/ses_1`. */
function sessionUrl(baseUrl: string, sessionId?: string): string {
  const base = `${baseUrl.replace(/\/+$/, '')}/sessions`;
  return sessionId === undefined ? base : `${base}/${idSegment('sessionId', sessionId)}`;
}

/** Options of {@link listSessions}: which page, besides the request's own options. */
export interface ListSessionsOptions extends RequestOptions {
  /** At most this many (the server answers 50 by default, at most 200). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page, for the next one; none for the first page. */
  readonly cursor?: string;
}

/** A page of conversations: an array of them, with the cursor of the next page when there is one. */
export type SessionList = SessionSummary[] & {
  /** Pass it as `cursor` for the next page; absent on the last page. */
  readonly nextCursor?: string;
};

/**
 * A page of the conversations the server holds (`GET <baseUrl>/sessions?limit=&cursor=`),
 * the most recently active first: id, title (the first prompt) and last activity; its
 * `nextCursor` asks for the next page. Conversations written while paging show on a new
 * first page, and neither repeat nor hide the others. Rejects with a `404`
 * {@link RunRequestError} when the server's session store cannot list them, `400` for a
 * cursor the server did not give, and with the `200` of an answer that is no such page (not
 * JSON, no `sessions` list: `baseUrl` names something else).
 *
 * @example
 * ```ts
 * let page = await listSessions('/api', { limit: 20 });
 * for (const s of page) console.log(s.title, new Date(s.lastActivityAt));
 * if (page.nextCursor) page = await listSessions('/api', { limit: 20, cursor: page.nextCursor });
 * ```
 */
export async function listSessions(baseUrl: string, options: ListSessionsOptions = {}): Promise<SessionList> {
  const query = new URLSearchParams();
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  if (options.cursor !== undefined) query.set('cursor', options.cursor);
  const search = query.toString();
  const url = sessionUrl(baseUrl) + (search ? `?${search}` : '');
  const { sessions, nextCursor } = ((await send(options, 'GET', url, 200)) ?? {}) as { sessions?: unknown; nextCursor?: unknown };
  if (!Array.isArray(sessions)) throw wrongAnswer(200, 'the answer has no "sessions" list', `GET ${url}`);
  const list = sessions as SessionSummary[];
  return typeof nextCursor === 'string' ? Object.assign(list, { nextCursor }) : list;
}

/**
 * One conversation (`GET <baseUrl>/sessions/:id`): its messages and its runs; continue it with
 * `startRun(baseUrl, { prompt, sessionId })`. Rejects with a `404` {@link RunRequestError} for
 * an unknown one, and with the `200` of an answer that is not a conversation (not JSON, no
 * `messages` and `runs` lists: `baseUrl` names something else).
 *
 * @example
 * ```ts
 * const { messages, runs } = await getSession('/api', sessionId);
 * ```
 */
export async function getSession(baseUrl: string, sessionId: string, options: RequestOptions = {}): Promise<SessionDetails> {
  const url = sessionUrl(baseUrl, sessionId);
  const details = (await send(options, 'GET', url, 200)) as Partial<SessionDetails> | null;
  if (!Array.isArray(details?.messages) || !Array.isArray(details.runs)) throw wrongAnswer(200, 'the answer has no "messages" and "runs" lists', `GET ${url}`);
  return details as SessionDetails;
}

/**
 * Forgets a conversation (`DELETE <baseUrl>/sessions/:id`): its messages, archive and "always"
 * approvals. Rejects with a {@link RunRequestError}: `404` for an unknown one, `409` while a
 * run of it is going.
 *
 * @example
 * ```ts
 * await deleteSession('/api', sessionId);
 * ```
 */
export async function deleteSession(baseUrl: string, sessionId: string, options: RequestOptions = {}): Promise<void> {
  await send(options, 'DELETE', sessionUrl(baseUrl, sessionId), 204);
}
