import { decideCommandLine } from './decide-command-line.js';
import { STRENGTH, type PermissionDecision } from './permission-decision.js';
import { describeRule, type PermissionAction, type PermissionRule } from './permission-rule.js';
import { matchesSubject, mayMatchShape, namesTool } from './rule-matches.js';

export type { PermissionDecision } from './permission-decision.js';

/**
 * Picks the deciding rule for a call: the matching rule of highest priority (default 0);
 * at equal priority deny beats ask beats allow; among equals the first listed wins.
 * A `bash` command line is decided part by part: each simple command by its own deciding
 * rule, other spellings of them by deny and ask rules only, and the line gets the
 * strictest of those answers (so `allow git *` does not allow `git status; rm x`).
 *
 * @returns the decision, or `undefined` when no rule matches (for a command line: when some
 * simple command is matched by no rule and nothing denies or asks).
 *
 * @example
 * ```ts
 * evaluateRules(
 *   [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }],
 *   'bash',
 *   'rm -rf build',
 * ); // { action: 'deny', reason: 'denied by rule {tool: "bash", action: deny, pattern: "rm *"}', rule }
 * ```
 */
export function evaluateRules(
  rules: readonly PermissionRule[],
  toolName: string,
  subject: string | undefined,
): PermissionDecision | undefined {
  if (toolName !== 'bash' || subject === undefined) return evaluateSubject(rules, toolName, subject);
  const decide = (text: string): PermissionDecision | undefined => evaluateSubject(rules, toolName, text);
  return decideCommandLine(subject, { command: decide, variant: decide, shape: (shape) => evaluateShape(rules, toolName, shape), guard: commandGuard(rules) });
}

/**
 * The strictest deny or ask rule that could match a command's shape (see `mayMatchShape`),
 * the higher priority first among equals; `undefined` when none could. Allow rules do not
 * count: which of a shape's commands they would allow is not known.
 */
export function evaluateShape(rules: readonly PermissionRule[], toolName: string, shape: string): PermissionDecision | undefined {
  let best: PermissionRule | undefined;
  for (const rule of rules) {
    if (!mayMatchShape(rule, toolName, shape)) continue;
    if (best === undefined || STRENGTH[rule.action] > STRENGTH[best.action] || (rule.action === best.action && (rule.priority ?? 0) > (best.priority ?? 0))) best = rule;
  }
  if (best === undefined) return undefined;
  return { action: best.action, reason: `${VERB[best.action]} by rule ${describeRule(best)}`, rule: best };
}

/** {@link evaluateRules} on one subject taken as a whole (a path, or one simple command). */
export function evaluateSubject(
  rules: readonly PermissionRule[],
  toolName: string,
  subject: string | undefined,
): PermissionDecision | undefined {
  let best: PermissionRule | undefined;
  // An index, not `for...of`: this runs for every agent a `task` schema lists at every step,
  // and V8 left the iterator's result objects unoptimised here (30 KiB of garbage a run).
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (!matchesSubject(rule, toolName, subject)) continue;
    if (best === undefined || beats(rule, best)) best = rule;
  }
  if (best === undefined) return undefined;
  return { action: best.action, reason: `${VERB[best.action]} by rule ${describeRule(best)}`, rule: best };
}

/**
 * What a bash line too complex to check gets under `rules`: `deny` when some rule denies
 * particular bash commands (a rule with a pattern, for `bash` or `*`), else `ask` when some
 * rule asks about them, else `undefined`.
 */
export function commandGuard(rules: readonly PermissionRule[]): 'deny' | 'ask' | undefined {
  let guard: 'deny' | 'ask' | undefined;
  for (const rule of rules) {
    if (rule.action === 'allow' || rule.pattern === undefined || !namesTool(rule.tool, 'bash')) continue;
    if (rule.action === 'deny') return 'deny';
    guard = 'ask';
  }
  return guard;
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
