import type { PermissionAction, PermissionRule } from './permission-rule.js';

/** The outcome of evaluating permission rules for one call. */
export interface PermissionDecision {
  /** What happens to the call: run it, refuse it, or ask the approval handler first. */
  readonly action: PermissionAction;
  /** A sentence a human can read, shown with approvals and refusals. */
  readonly reason: string;
  /** The rule that decided, when one did. */
  readonly rule?: PermissionRule;
}

/** How strict an action is: at equal priority the stricter rule wins, and a command line gets the strictest answer of its parts. */
export const STRENGTH: Readonly<Record<PermissionAction, number>> = { deny: 2, ask: 1, allow: 0 };
