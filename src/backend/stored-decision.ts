import type { ApprovalDecision } from '../permission/approval.js';
import { isPlainObject } from './stored-object.js';

const DECISIONS = new Set(['approve', 'reject', 'always']);

/**
 * An approval decision that came over Redis (a channel's parsed message), or undefined when
 * it is not one: `{ decision: 'approve' | 'reject' | 'always', comment?: string }`. Anyone
 * with access to the Redis can publish, and a waiting tool call must get a decision it can
 * read (or none: it then waits for a real answer, or fails closed).
 *
 * @example
 * ```ts
 * storedDecision({ decision: 'reject', comment: 'no' }); // the decision
 * storedDecision(null); // undefined
 * ```
 */
export function storedDecision(value: unknown): ApprovalDecision | undefined {
  if (!isPlainObject(value) || !DECISIONS.has(value['decision'] as string)) return undefined;
  if (value['comment'] !== undefined && typeof value['comment'] !== 'string') return undefined;
  return value as unknown as ApprovalDecision;
}
