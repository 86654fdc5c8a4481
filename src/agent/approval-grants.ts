import type { ApprovalGrant, MaybePromise, SessionStore } from '../session/session-store.js';

/** How many conversations an engine keeps grants for in memory; past it, the least recently used is forgotten. */
export const MAX_GRANT_SESSIONS = 1000;
/** How many grants one conversation keeps in memory; past it, its oldest is forgotten. */
export const MAX_GRANTS_PER_SESSION = 1000;
/** What all grants in memory may weigh (UTF-16 units of tool names and subjects). */
export const MAX_GRANT_CHARS = 8 * 1024 * 1024;

/** One conversation's grants, what they weigh, and the store that keeps them. */
interface SessionGrants {
  readonly keys: Set<string>;
  chars: number;
  /** Set once the conversation was opened with its store. */
  store?: SessionStore;
}

/**
 * Remembers "always" approvals: an allow for one tool on one subject (a command, a path),
 * for the rest of a conversation. Keyed by the main session, so a grant made for a subagent
 * holds for the whole delegation tree of that conversation. A grant only answers an `ask`;
 * it never overrides a `deny` and never widens the workspace.
 *
 * A conversation opened with its session store keeps its grants there too (when the store
 * can: `loadGrants` / `saveGrant`), so they survive a restart of the process.
 *
 * Bounded, as every conversation of a long-lived engine passes through it: at most
 * {@link MAX_GRANT_SESSIONS} conversations (the least recently used forgotten first), each
 * with at most {@link MAX_GRANTS_PER_SESSION} grants (its oldest forgotten first), and
 * {@link MAX_GRANT_CHARS} in all. A forgotten grant only means asking again; a forgotten
 * conversation reads its stored grants again when it next runs.
 *
 * @example
 * ```ts
 * const grants = new ApprovalGrants();
 * grants.grant('s1', 'bash', 'npm test');
 * grants.has('s1', 'bash', 'npm test'); // true
 * ```
 */
export class ApprovalGrants {
  /** Least recently used first (a Map keeps insertion order; a use moves an entry to the end). */
  private readonly bySession = new Map<string, SessionGrants>();
  private chars = 0;

  /**
   * Reads a conversation's stored grants once (later calls do nothing) and keeps its new
   * ones in `store` from now on. Resolves with the number of stored entries that were not
   * grants (skipped).
   */
  open(sessionId: string, store: SessionStore): MaybePromise<number> {
    const known = this.touch(sessionId);
    if (known?.store) return 0;
    this.entry(sessionId).store = store;
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
    const saved = this.bySession.get(sessionId)?.store?.saveGrant?.(sessionId, subject === undefined ? { toolName } : { toolName, subject });
    // Kept in memory either way; a store that cannot save loses it only for a later process.
    if (saved instanceof Promise) saved.catch(() => undefined);
  }

  /** Whether a grant covers this call: same conversation, tool and subject. */
  has(sessionId: string, toolName: string, subject: string | undefined): boolean {
    return this.touch(sessionId)?.keys.has(key(toolName, subject)) ?? false;
  }

  /** Forgets a conversation's grants (in memory; what its store keeps stays). */
  clear(sessionId: string): void {
    this.chars -= this.bySession.get(sessionId)?.chars ?? 0;
    this.bySession.delete(sessionId);
  }

  /** How many conversations it holds, and what their grants weigh (for tests and diagnostics). */
  get size(): { readonly sessions: number; readonly chars: number } {
    return { sessions: this.bySession.size, chars: this.chars };
  }

  private remember(sessionId: string, toolName: string, subject: string | undefined): void {
    const k = key(toolName, subject);
    const grants = this.entry(sessionId);
    if (grants.keys.has(k)) return;
    grants.keys.add(k);
    grants.chars += k.length;
    this.chars += k.length;
    while (grants.keys.size > MAX_GRANTS_PER_SESSION) this.dropOldest(grants);
    // Other conversations give way first, least recently used first; then this one's oldest.
    for (const id of this.bySession.keys()) {
      if (this.chars <= MAX_GRANT_CHARS) break;
      if (id !== sessionId) this.clear(id);
    }
    while (this.chars > MAX_GRANT_CHARS && grants.keys.size > 1) this.dropOldest(grants);
  }

  private dropOldest(grants: SessionGrants): void {
    const oldest = grants.keys.values().next().value!;
    grants.keys.delete(oldest);
    grants.chars -= oldest.length;
    this.chars -= oldest.length;
  }

  /** A conversation's entry, made (and the least recently used ones forgotten past the bound) if new. */
  private entry(sessionId: string): SessionGrants {
    let grants = this.touch(sessionId);
    if (!grants) {
      this.bySession.set(sessionId, (grants = { keys: new Set(), chars: 0 }));
      for (const id of this.bySession.keys()) {
        if (this.bySession.size <= MAX_GRANT_SESSIONS) break;
        this.clear(id);
      }
    }
    return grants;
  }

  /** A conversation's entry, marked as just used. */
  private touch(sessionId: string): SessionGrants | undefined {
    const grants = this.bySession.get(sessionId);
    if (grants) {
      this.bySession.delete(sessionId);
      this.bySession.set(sessionId, grants);
    }
    return grants;
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
