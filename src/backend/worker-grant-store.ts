import type { GrantStore } from '../agent/grant-entries.js';
import type { BackendParts } from './backend-parts.js';
import type { RedisSessionStore } from './redis-session-store.js';

/** A worker's grant store, and whether it is the truth of a conversation's grants now. @internal */
export interface WorkerGrantStore extends GrantStore {
  /**
   * Whether the conversation is kept in the store, so that what the store lists is all its
   * grants: a run holds its claim (its lease), or its messages are saved. One read.
   */
  stored(sessionId: string): Promise<boolean>;
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
 * `stored` tells the two apart: a run with a `sessionId` saves its prompt before its first
 * step, so by the time any of its tasks starts its messages are in the store (or its claim
 * is held), until the conversation is deleted or expires; a run without one saves nothing
 * under its id. A record planted under a run's id only makes its tasks read the store, where
 * the worker's remembered grants are not: they ask again (fail-closed), never gain one.
 *
 * @internal
 */
export function workerGrantStore(parts: BackendParts, store: RedisSessionStore, runs: () => Iterable<string>): WorkerGrantStore {
  const { redis, keys } = parts;
  return {
    keepsGrants: true,
    loadGrants: (sessionId) => store.loadGrants(sessionId),
    saveGrant: (sessionId, grant) => store.saveGrant(sessionId, grant, [...new Set(runs())]),
    stored: async (sessionId) => (await redis.exists(keys.claim(sessionId), keys.session(sessionId))) > 0,
  };
}
