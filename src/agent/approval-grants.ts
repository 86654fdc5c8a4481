import type { MaybePromise } from '../session/session-store.js';
import { checkedGrants, grantKey, type GrantStore, whenSettled } from './grant-entries.js';
import { GrantMemory } from './grant-memory.js';

// Its bounds are kept here by name, where its users have always found them.
export { MAX_GRANT_CHARS, MAX_GRANT_SESSIONS, MAX_GRANTS_PER_SESSION } from './grant-memory.js';

/**
 * Remembers "always" approvals: an allow for one tool on one subject (a command, a path),
 * for the rest of a conversation. Keyed by the main session, so a grant made for a subagent
 * holds for the whole delegation tree of that conversation. A grant only answers an `ask`;
 * it never overrides a `deny` and never widens the workspace.
 *
 * A conversation opened with its session store keeps its grants there too (when the store
 * can: `loadGrants` / `saveGrant`), so they survive a restart of the process; and each open
 * (every run of the conversation starts with one) reads them again: a store seen keeping
 * grants is the truth, so what it no longer lists (the conversation deleted or expired, by
 * this process or another) is forgotten here too, as is a grant whose save failed. A store
 * keeps grants when it says so (`keepsGrants`: the Redis store, a `FileSessionStore` with a
 * usable key) or once it has listed one; a store never seen keeping any (a `FileSessionStore`
 * without a usable key) leaves the grants in memory, for the process.
 *
 * Bounded in memory, as every conversation of a long-lived engine passes through it (see
 * {@link GrantMemory}): a forgotten grant only means asking again.
 *
 * @example
 * ```ts
 * const grants = new ApprovalGrants();
 * grants.grant('s1', 'bash', 'npm test');
 * grants.has('s1', 'bash', 'npm test'); // true
 * ```
 */
export class ApprovalGrants extends GrantMemory {
  /** The stores seen keeping grants: one listed a grant (a store may say so, see `keepsGrants`). */
  private readonly keeping = new WeakSet<GrantStore>();

  /**
   * Reads a conversation's stored grants (one `loadGrants`), which from then on are its
   * grants here (with those of this process still being saved), and keeps its new ones in
   * `store`. Resolves with the number of stored entries that were not grants (skipped).
   */
  open(sessionId: string, store: GrantStore): MaybePromise<number> {
    const grants = this.entry(sessionId);
    grants.store = store;
    if (typeof store.loadGrants !== 'function') return 0; // memory is all it has
    const kept = new Set(grants.saving);
    grants.loads.add(kept);
    const take = (entries: unknown): number => {
      grants.loads.delete(kept);
      const { keys, skipped } = checkedGrants(entries);
      if (keys.length > 0) this.keeping.add(store);
      const now = this.entry(sessionId);
      now.store = store;
      if (this.keeps(store)) this.forgetKeys(now);
      for (const k of [...keys, ...kept]) this.remember(sessionId, k);
      return skipped;
    };
    const failed = (e: unknown): never => {
      grants.loads.delete(kept);
      throw e;
    };
    let stored: unknown;
    try {
      stored = store.loadGrants(sessionId);
    } catch (e) {
      return failed(e);
    }
    return stored instanceof Promise ? stored.then(take, failed) : take(stored);
  }

  /**
   * Remembers that `toolName` on exactly this `subject` is allowed for the conversation
   * `sessionId` (the main session), in its store too when it was opened with one. An
   * `undefined` subject grants the calls that have none.
   */
  grant(sessionId: string, toolName: string, subject: string | undefined): void {
    const k = grantKey(toolName, subject);
    if (!this.remember(sessionId, k)) return; // held already: stored, or being saved
    const grants = this.bySession.get(sessionId)!;
    for (const kept of grants.loads) kept.add(k);
    const store = grants.store;
    if (typeof store?.saveGrant !== 'function') return;
    grants.saving.add(k);
    // Kept in memory either way; if a store that keeps grants fails to save it, the
    // conversation's next open forgets it (asked again): only the store is shared.
    whenSettled(
      () => store.saveGrant!(sessionId, subject === undefined ? { toolName } : { toolName, subject }),
      (saved) => {
        grants.saving.delete(k);
        if (saved) this.readBack(store, sessionId, k);
      },
    );
  }

  /** Whether a grant covers this call: same conversation, tool and subject. */
  has(sessionId: string, toolName: string, subject: string | undefined): boolean {
    return this.touch(sessionId)?.keys.has(grantKey(toolName, subject)) ?? false;
  }

  /** Whether what `store` lists is all a conversation has: it says so, or it listed one. */
  private keeps(store: GrantStore): boolean {
    return store.keepsGrants === true || this.keeping.has(store);
  }

  /**
   * Until a store is seen keeping grants (one that says it does needs no look), a saved one
   * is read back once: a store that lists it keeps grants (from then on what it lists is the
   * truth); one that says it saved but lists nothing (a `FileSessionStore` without a usable
   * key) leaves them to memory.
   */
  private readBack(store: GrantStore, sessionId: string, k: string): void {
    if (this.keeps(store) || typeof store.loadGrants !== 'function') return;
    whenSettled(
      () => store.loadGrants!(sessionId),
      (ok, entries) => {
        if (ok && checkedGrants(entries).keys.includes(k)) this.keeping.add(store);
      },
    );
  }
}
