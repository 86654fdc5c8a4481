/**
 * Remembers "always" approvals: an allow for one tool on one subject (a command, a path),
 * for the rest of a conversation. Keyed by the main session, so a grant made for a subagent
 * holds for the whole delegation tree of that conversation. A grant only answers an `ask`;
 * it never overrides a `deny` and never widens the workspace.
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

  /**
   * Remembers that `toolName` on exactly this `subject` is allowed for the conversation
   * `sessionId` (the main session). An `undefined` subject grants the calls that have none.
   */
  grant(sessionId: string, toolName: string, subject: string | undefined): void {
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(key(toolName, subject));
  }

  /** Whether a grant covers this call: same conversation, tool and subject. */
  has(sessionId: string, toolName: string, subject: string | undefined): boolean {
    return this.bySession.get(sessionId)?.has(key(toolName, subject)) ?? false;
  }

  /** Forgets a conversation's grants. */
  clear(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}

function key(toolName: string, subject: string | undefined): string {
  return subject === undefined ? toolName : `${toolName}\u0000${subject}`;
}
