import type { GrantStore } from './grant-entries.js';

/** How many conversations an engine keeps grants for in memory; past it, the least recently used is forgotten. */
export const MAX_GRANT_SESSIONS = 1000;
/** How many grants one conversation keeps in memory; past it, its oldest is forgotten. */
export const MAX_GRANTS_PER_SESSION = 1000;
/** What all grants in memory may weigh (UTF-16 units of tool names and subjects). */
export const MAX_GRANT_CHARS = 8 * 1024 * 1024;

/** One conversation's grants, what they weigh, and the store that keeps them. */
export interface SessionGrants {
  readonly keys: Set<string>;
  chars: number;
  /** Set once the conversation was opened with its store. */
  store?: GrantStore;
  /** Grants of this process whose save has not settled: a load may not list them yet. */
  readonly saving: Set<string>;
  /** For each load in flight, what it keeps besides what it lists: grants saving as it was asked, or made since. */
  readonly loads: Set<Set<string>>;
}

/**
 * The grants `ApprovalGrants` holds in memory, by conversation, bounded: at most
 * {@link MAX_GRANT_SESSIONS} conversations (the least recently used forgotten first), each
 * with at most {@link MAX_GRANTS_PER_SESSION} grants (its oldest forgotten first), and
 * {@link MAX_GRANT_CHARS} in all. A forgotten grant only means asking again.
 */
export class GrantMemory {
  /** Least recently used first (a Map keeps insertion order; a use moves an entry to the end). */
  protected readonly bySession = new Map<string, SessionGrants>();
  private chars = 0;

  /** Forgets a conversation's grants (in memory; what its store keeps stays). */
  clear(sessionId: string): void {
    this.chars -= this.bySession.get(sessionId)?.chars ?? 0;
    this.bySession.delete(sessionId);
  }

  /** How many conversations it holds, and what their grants weigh (for tests and diagnostics). */
  get size(): { readonly sessions: number; readonly chars: number } {
    return { sessions: this.bySession.size, chars: this.chars };
  }

  /** Remembers a grant (by its key); false when it was held already. */
  protected remember(sessionId: string, k: string): boolean {
    const grants = this.entry(sessionId);
    if (grants.keys.has(k)) return false;
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
    return true;
  }

  /** Forgets every grant of one conversation, keeping its entry (its store, its saves and loads in flight). */
  protected forgetKeys(grants: SessionGrants): void {
    this.chars -= grants.chars;
    grants.chars = 0;
    grants.keys.clear();
  }

  /** A conversation's entry, made (and the least recently used ones forgotten past the bound) if new. */
  protected entry(sessionId: string): SessionGrants {
    let grants = this.touch(sessionId);
    if (!grants) {
      this.bySession.set(sessionId, (grants = { keys: new Set(), chars: 0, saving: new Set(), loads: new Set() }));
      for (const id of this.bySession.keys()) {
        if (this.bySession.size <= MAX_GRANT_SESSIONS) break;
        this.clear(id);
      }
    }
    return grants;
  }

  /** A conversation's entry, marked as just used. */
  protected touch(sessionId: string): SessionGrants | undefined {
    const grants = this.bySession.get(sessionId);
    if (grants) {
      this.bySession.delete(sessionId);
      this.bySession.set(sessionId, grants);
    }
    return grants;
  }

  private dropOldest(grants: SessionGrants): void {
    const oldest = grants.keys.values().next().value!;
    grants.keys.delete(oldest);
    grants.chars -= oldest.length;
    this.chars -= oldest.length;
  }
}
