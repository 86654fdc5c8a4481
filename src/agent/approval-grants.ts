import type { ApprovalGrant, MaybePromise, SessionStore } from '../session/session-store.js';

/**
 * Remembers "always" approvals: an allow for one tool on one subject (a command, a path),
 * for the rest of a conversation. Keyed by the main session, so a grant made for a subagent
 * holds for the whole delegation tree of that conversation. A grant only answers an `ask`;
 * it never overrides a `deny` and never widens the workspace.
 *
 * A conversation opened with its session store keeps its grants there too (when the store
 * can: `loadGrants` / `saveGrant`), so they survive a restart of the process.
 *
 * @example
 * ```ts
 * const grants = new ApprovalGrants();
 * grants.grant('s1', 'bash', 'npm test');
 * grants.has('s1', 'bash', 'npm test'); // true
 * ```
 */
export class ApprovalGrants {
  private readonly bySession = new Map<string, Set<string>>();
  /** Conversations whose grants are kept in a store, and that store. */
  private readonly stores = new Map<string, SessionStore>();

  /**
   * Reads a conversation's stored grants once (later calls do nothing) and keeps its new
   * ones in `store` from now on. Resolves with the number of stored entries that were not
   * grants (skipped).
   */
  open(sessionId: string, store: SessionStore): MaybePromise<number> {
    if (this.stores.has(sessionId)) return 0;
    this.stores.set(sessionId, store);
    const stored = store.loadGrants?.(sessionId);
    const take = (entries: unknown): number => {
      let skipped = 0;
      for (const entry of Array.isArray(entries) ? entries : []) {
        if (isGrant(entry)) this.remember(sessionId, entry.toolName, entry.subject);
        else skipped += 1;
      }
      return skipped + (entries === undefined || Array.isArray(entries) ? 0 : 1);
    };
    return stored instanceof Promise ? stored.then(take) : take(stored);
  }

  /**
   * Remembers that `toolName` on exactly this `subject` is allowed for the conversation
   * `sessionId` (the main session), in its store too when it was opened with one. An
   * `undefined` subject grants the calls that have none.
   */
  grant(sessionId: string, toolName: string, subject: string | undefined): void {
    this.remember(sessionId, toolName, subject);
    const saved = this.stores.get(sessionId)?.saveGrant?.(sessionId, subject === undefined ? { toolName } : { toolName, subject });
    // Kept in memory either way; a store that cannot save loses it only for a later process.
    if (saved instanceof Promise) saved.catch(() => undefined);
  }

  /** Whether a grant covers this call: same conversation, tool and subject. */
  has(sessionId: string, toolName: string, subject: string | undefined): boolean {
    return this.bySession.get(sessionId)?.has(key(toolName, subject)) ?? false;
  }

  /** Forgets a conversation's grants (in memory; what its store keeps stays). */
  clear(sessionId: string): void {
    this.bySession.delete(sessionId);
    this.stores.delete(sessionId);
  }

  private remember(sessionId: string, toolName: string, subject: string | undefined): void {
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(key(toolName, subject));
  }
}

function key(toolName: string, subject: string | undefined): string {
  return subject === undefined ? toolName : `${toolName}\u0000${subject}`;
}

function isGrant(value: unknown): value is ApprovalGrant {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Record<string, unknown>;
  return typeof g.toolName === 'string' && (g.subject === undefined || typeof g.subject === 'string');
}
