import type { SessionStore } from '../session/session-store.js';
import { SessionBusyError } from './session-busy-error.js';

/** For each store, the sessions a run is using now, and by which run. */
const active = new WeakMap<SessionStore, Map<string, string>>();

/**
 * Claims a session of a store for one run, or throws {@link SessionBusyError} when another
 * run holds it. Returns the release; releasing twice is harmless. Keyed by the store object,
 * so every agent sharing a store (an engine's whole tree) shares the claims.
 *
 * @example
 * ```ts
 * const release = claimSession(store, 'ses_1', run.runId);
 * try { ... } finally { release(); }
 * ```
 */
export function claimSession(store: SessionStore, sessionId: string, runId: string): () => void {
  let claims = active.get(store);
  if (!claims) active.set(store, (claims = new Map()));
  const holder = claims.get(sessionId);
  if (holder !== undefined) throw new SessionBusyError(sessionId, holder);
  claims.set(sessionId, runId);
  return () => {
    if (claims.get(sessionId) === runId) claims.delete(sessionId);
  };
}
