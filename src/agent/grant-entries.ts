import type { ApprovalGrant, MaybePromise, SessionStore } from '../session/session-store.js';

/** Where a conversation's "always" grants are kept: a session store's grant methods, and whether it keeps them. */
export type GrantStore = Pick<SessionStore, 'loadGrants' | 'saveGrant' | 'keepsGrants'>;

/** The key of a grant in memory: its tool, and its subject when it has one. */
export function grantKey(toolName: string, subject: string | undefined): string {
  return subject === undefined ? toolName : `${toolName}\u0000${subject}`;
}

/** What a store answered for a conversation's grants: their keys, oldest first, and how many entries were no grant. */
export function checkedGrants(entries: unknown): { readonly keys: readonly string[]; readonly skipped: number } {
  if (!Array.isArray(entries)) return { keys: [], skipped: entries === undefined ? 0 : 1 };
  const keys: string[] = [];
  for (const entry of entries) if (isGrant(entry)) keys.push(grantKey(entry.toolName, entry.subject));
  return { keys, skipped: entries.length - keys.length };
}

/**
 * Calls `then` with whether `work` succeeded, once it has settled; never throws (a store's
 * synchronous throw included): a grant is kept in memory whatever its store does.
 */
export function whenSettled(work: () => MaybePromise<unknown>, then: (ok: boolean, value: unknown) => void): void {
  let answer: MaybePromise<unknown>;
  try {
    answer = work();
  } catch {
    return then(false, undefined);
  }
  if (answer instanceof Promise) answer.then((v) => then(true, v), () => then(false, undefined)).catch(() => undefined);
  else then(true, answer);
}

function isGrant(value: unknown): value is ApprovalGrant {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Record<string, unknown>;
  return typeof g.toolName === 'string' && (g.subject === undefined || typeof g.subject === 'string');
}
