import { sessionIdProblem } from '../session/session-id.js';
import { pageOfSessions } from '../session/session-order.js';
import type { SessionPosition, SessionSummary } from '../session/session-store.js';
import { HttpFailure } from './http-failure.js';

/** How many conversations `GET <base>/sessions` answers without `?limit=`. */
export const DEFAULT_SESSION_PAGE = 50;

/** The most conversations one `GET <base>/sessions` answers; a larger `?limit=` is cut to it. */
export const MAX_SESSION_PAGE = 200;

/** What a `GET <base>/sessions` query asks: how many, and after which conversation. */
export interface SessionPageQuery {
  /** How many conversations to answer. */
  readonly limit: number;
  /** Those after this position (the cursor's), or from the most recent. */
  readonly after?: SessionPosition;
}

/**
 * Reads `?limit=&cursor=` of `GET <base>/sessions`: `limit` an integer >= 1 (default 50, at
 * most 200), `cursor` the `nextCursor` of the previous page.
 *
 * @throws HttpFailure `400` naming what is wrong with either.
 */
export function sessionPageQuery(query: string): SessionPageQuery {
  const params = new URLSearchParams(query);
  const limitText = params.get('limit');
  let limit = DEFAULT_SESSION_PAGE;
  if (limitText !== null) {
    if (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1) throw new HttpFailure(400, `limit must be a whole number from 1 to ${MAX_SESSION_PAGE}, got ${JSON.stringify(limitText.slice(0, 40))}`);
    limit = Math.min(Number(limitText), MAX_SESSION_PAGE);
  }
  const cursor = params.get('cursor');
  return cursor === null ? { limit } : { limit, after: decodeCursor(cursor) };
}

/** The `nextCursor` that continues after `summary` (opaque to clients: base64url JSON). */
export function encodeCursor(summary: SessionPosition): string {
  return Buffer.from(JSON.stringify([summary.lastActivityAt, summary.sessionId])).toString('base64url');
}

function decodeCursor(cursor: string): SessionPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const [lastActivityAt, sessionId] = Array.isArray(value) && value.length === 2 ? (value as unknown[]) : [];
  if (typeof lastActivityAt !== 'number' || !Number.isSafeInteger(lastActivityAt) || sessionIdProblem(sessionId) !== undefined) {
    throw new HttpFailure(400, `cursor ${JSON.stringify(cursor.slice(0, 40))} is not one this server gave: pass the nextCursor of the previous page as it is, or none for the first page`);
  }
  return { lastActivityAt, sessionId: sessionId as string };
}

/**
 * The page to answer from what a store's `list({ limit: limit + 1, after })` gave: as it is
 * when the store honoured the request, else (a store of its own whose `list()` ignores it)
 * sorted, cut after the position and to the size here.
 */
export function honouredPage(listed: readonly SessionSummary[], query: SessionPageQuery): readonly SessionSummary[] {
  const { limit, after } = query;
  const ignored = listed.length > limit + 1 || (after !== undefined && listed.some((s) => s.lastActivityAt > after.lastActivityAt || s.sessionId === after.sessionId));
  return ignored ? pageOfSessions(listed, { limit: limit + 1, ...(after ? { after } : {}) }) : listed;
}
