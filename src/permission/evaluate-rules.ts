import { describeRule, type PermissionAction, type PermissionRule } from './permission-rule.js';
import { ruleMatches } from './rule-matches.js';

/** The outcome of evaluating permission rules for one call. */
export interface PermissionDecision {
  /** What happens to the call: run it, refuse it, or ask the approval handler first. */
  readonly action: PermissionAction;
  /** A sentence a human can read, shown with approvals and refusals. */
  readonly reason: string;
  /** The rule that decided, when one did. */
  readonly rule?: PermissionRule;
}

const STRENGTH: Readonly<Record<PermissionAction, number>> = { deny: 2, ask: 1, allow: 0 };

/**
 * Picks the deciding rule for a call: the matching rule of highest priority (default 0);
 * at equal priority deny beats ask beats allow; among equals the first listed wins.
 *
 * @returns the decision, or `undefined` when no rule matches.
 *
 * @example
 * ```ts
 * evaluateRules(
 *   [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }],
 *   'bash',
 *   'rm -rf build',
 * ); // { action: 'deny', reason: 'denied by rule {tool: bash, action: deny, pattern: rm *}', rule }
 * ```
 */
export function evaluateRules(
  rules: readonly PermissionRule[],
  toolName: string,
  subject: string | undefined,
): PermissionDecision | undefined {
  let best: PermissionRule | undefined;
  for (const rule of rules) {
    if (!ruleMatches(rule, toolName, subject)) continue;
    if (best === undefined || beats(rule, best)) best = rule;
  }
  if (best === undefined) return undefined;
  return { action: best.action, reason: `${VERB[best.action]} by rule ${describeRule(best)}`, rule: best };
}

const VERB: Readonly<Record<PermissionAction, string>> = {
  allow: 'allowed',
  ask: 'approval required',
  deny: 'denied',
};

function beats(candidate: PermissionRule, current: PermissionRule): boolean {
  const a = candidate.priority ?? 0;
  const b = current.priority ?? 0;
  if (a !== b) return a > b;
  return STRENGTH[candidate.action] > STRENGTH[current.action];
}
