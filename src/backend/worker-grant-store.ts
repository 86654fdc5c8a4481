import type { GrantStore } from '../agent/grant-entries.js';
import type { BackendParts } from './backend-parts.js';
import type { RedisSessionStore } from './redis-session-store.js';

/** A worker's grant store, and whether a run of a conversation holds it now. @internal */
export interface WorkerGrantStore extends GrantStore {
  /** Whether a run holds the conversation's claim (its lease): its stored grants are then its truth. */
  claimed(sessionId: string): Promise<boolean>;
}

/**
 * Where a worker keeps the "always" approvals its tasks are given: under their conversation,
 * in the store the engines share, so that the engine's delete of the conversation (or its
 * expiry) revokes them, and every task of it on any worker reads them at its start. Saved
 * only while the run a task of this worker belongs to (`runs`: the root runs of its running
 * jobs) holds the conversation's claim, checked in the script that saves (a check, then a
 * save, let the run end and the conversation be deleted between them: the save brought the
 * grants back). A run without a `sessionId` holds none and keeps its grants nowhere (saved,
 * its id would become a listed conversation); its tasks' grants stay in the worker's memory.
 *
 * @internal
 */
export function workerGrantStore(parts: BackendParts, store: RedisSessionStore, runs: () => Iterable<string>): WorkerGrantStore {
  return {
    keepsGrants: true,
    loadGrants: (sessionId) => store.loadGrants(sessionId),
    saveGrant: (sessionId, grant) => store.saveGrant(sessionId, grant, [...new Set(runs())]),
    claimed: async (sessionId) => (await parts.redis.exists(parts.keys.claim(sessionId))) > 0,
  };
}
