import type { PermissionDecision } from '../permission/permission-decision.js';
import type { RunScope } from './run-scope.js';

/** How several subjects of one call were judged: denied, or the subject and decision the gate goes on with. */
export type SubjectsJudged =
  | { readonly denied: string }
  | { readonly subject: string | undefined; readonly decision: PermissionDecision };

/**
 * Judges every subject of a call (a tool's `subjects`) under the agent's rules: a deny of
 * any denies the call (its reason); else those that ask and are not granted for this
 * conversation make the call ask, about them together (one subject, joined by `, `); else
 * the call is allowed, under its first subject.
 *
 * @example
 * ```ts
 * judgeSubjects(scope, 'mcp__fs__move_file', ['notes/a.txt', 'secret/key']); // { denied: 'denied by rule ...' }
 * ```
 */
export function judgeSubjects(scope: RunScope, toolName: string, subjects: readonly string[]): SubjectsJudged {
  const { permissions, grants } = scope.agent;
  const asking: { subject: string; reason: string }[] = [];
  for (const subject of new Set(subjects)) {
    const decision = permissions.evaluate(toolName, subject);
    if (decision.action === 'deny') return { denied: decision.reason };
    if (decision.action === 'ask' && !grants.has(scope.rootSessionId, toolName, subject)) asking.push({ subject, reason: decision.reason });
  }
  if (asking.length === 0) return { subject: subjects[0], decision: { action: 'allow', reason: `every path of the ${toolName} call is allowed` } };
  const reason = asking.length === 1 ? asking[0]!.reason : asking.map((a) => `${a.subject}: ${a.reason}`).join('; ');
  return { subject: asking.map((a) => a.subject).join(', '), decision: { action: 'ask', reason } };
}
