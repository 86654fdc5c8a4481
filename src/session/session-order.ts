import type { SessionListRequest, SessionPosition, SessionSummary } from './session-store.js';

/**
 * The order of `SessionStore.list()`: the most recently active first, ties by `key`
 * descending, compared by code point (which is the byte order of UTF-8, so it is also the
 * order Redis gives members of equal score). Negative when `a` comes first.
 *
 * @example
 * ```ts
 * [b, a].sort((x, y) => newestFirst(x.lastActivityAt, x.sessionId, y.lastActivityAt, y.sessionId));
 * ```
 */
export function newestFirst(aTime: number, aKey: string, bTime: number, bKey: string): number {
  if (aTime !== bTime) return bTime - aTime;
  return -compareCodePoints(aKey, bKey);
}

/**
 * One page of `summaries` as {@link SessionListRequest} asks: sorted newest first (ties by id),
 * those after `request.after`, at most `request.limit`. For stores that hold their
 * summaries in memory, and for a store's answer that ignored the request.
 *
 * @example
 * ```ts
 * pageOfSessions(all, { limit: 50, after: { lastActivityAt: 1_700_000_000_000, sessionId: 'ses_9' } });
 * ```
 */
export function pageOfSessions(summaries: readonly SessionSummary[], request: SessionListRequest = {}): SessionSummary[] {
  const { after, limit } = request;
  const byOrder = (a: SessionPosition, b: SessionPosition) => newestFirst(a.lastActivityAt, a.sessionId, b.lastActivityAt, b.sessionId);
  const sorted = summaries.slice().sort(byOrder);
  const rest = after === undefined ? sorted : sorted.filter((summary) => byOrder(after, summary) < 0);
  return limit === undefined ? rest : rest.slice(0, limit);
}

/** Compares two strings by code point, not by UTF-16 unit (an astral character sorts after U+FFFF). */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++; // both are the same pair
  }
  return a.length - b.length;
}
