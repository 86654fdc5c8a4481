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

/**
 * Checks a {@link SessionListRequest} before a store answers it: a cursor whose time is not a
 * finite number (`NaN`, from a cursor parsed by hand) or whose id is not a string matches no
 * session, and a `limit` that is not an integer >= 0 cuts nothing sensible, so either would
 * answer an empty page, read as "no more conversations". Said instead.
 *
 * @throws RangeError naming the field, what it must be and what it was.
 *
 * @example
 * ```ts
 * checkListRequest({ limit: 50, after: { lastActivityAt: Number('x'), sessionId: 's1' } }); // throws
 * ```
 */
export function checkListRequest(request: SessionListRequest | undefined): void {
  if (request === undefined) return;
  const { limit, after } = request;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) throw new RangeError(`list: limit must be an integer >= 0, got ${String(limit)}`);
  if (after === undefined) return;
  const page = 'the last session of the previous page';
  if (typeof after !== 'object' || after === null) throw new RangeError(`list: after must be { lastActivityAt, sessionId } (${page}), got ${String(after)}`);
  if (typeof after.lastActivityAt !== 'number' || !Number.isFinite(after.lastActivityAt)) {
    throw new RangeError(`list: after.lastActivityAt must be a finite number (the lastActivityAt of ${page}), got ${String(after.lastActivityAt)}`);
  }
  if (typeof after.sessionId !== 'string') throw new RangeError(`list: after.sessionId must be a string (the sessionId of ${page}), got ${String(after.sessionId)}`);
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
