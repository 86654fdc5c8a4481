import type { GrantStore } from '../agent/grant-entries.js';
import type { SessionStore } from '../session/session-store.js';
import type { BackendParts } from './backend-parts.js';

/**
 * Where a worker keeps the "always" approvals its tasks are given: under their conversation,
 * in the store the engines share, so that the engine's delete of the conversation (or its
 * expiry) revokes them, and every task of it on any worker reads them at its start. Saved
 * only while a run of the conversation holds it (its lease, which a task's run waits under):
 * a run without a `sessionId` holds none and keeps its grants nowhere (saved, its id would
 * become a listed conversation); its tasks' grants stay in the worker's memory.
 *
 * @internal
 */
export function workerGrantStore(parts: BackendParts, store: SessionStore): GrantStore {
  return {
    loadGrants: (sessionId) => store.loadGrants?.(sessionId) ?? [],
    saveGrant: async (sessionId, grant) => {
      if ((await parts.redis.exists(parts.keys.claim(sessionId))) > 0) await store.saveGrant?.(sessionId, grant);
    },
  };
}
