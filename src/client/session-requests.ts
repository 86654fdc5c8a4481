import type { ChatMessage } from '../model/chat-message.js';
import type { RunInfo } from '../runs/run-types.js';
import type { SessionSummary } from '../session/session-store.js';
import { send, type RequestOptions } from './run-requests.js';

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
  return sessionId === undefined ? base : `${base}/${encodeURIComponent(sessionId)}`;
}

/**
 * The conversations the server holds (`GET <baseUrl>/sessions`), the most recently active
 * first: id, title (the first prompt) and last activity. Rejects with a `404`
 * {@link RunRequestError} when the server's session store cannot list them.
 *
 * @example
 * ```ts
 * for (const s of await listSessions('/api')) console.log(s.title, new Date(s.lastActivityAt));
 * ```
 */
export async function listSessions(baseUrl: string, options: RequestOptions = {}): Promise<SessionSummary[]> {
  return ((await send(options, 'GET', sessionUrl(baseUrl), 200)) as { sessions: SessionSummary[] }).sessions;
}

/**
 * One conversation (`GET <baseUrl>/sessions/:id`): its messages and its runs; continue it with
 * `startRun(baseUrl, { prompt, sessionId })`. Rejects with a `404` {@link RunRequestError} for
 * an unknown one.
 *
 * @example
 * ```ts
 * const { messages, runs } = await getSession('/api', sessionId);
 * ```
 */
export async function getSession(baseUrl: string, sessionId: string, options: RequestOptions = {}): Promise<SessionDetails> {
  return (await send(options, 'GET', sessionUrl(baseUrl, sessionId), 200)) as SessionDetails;
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
