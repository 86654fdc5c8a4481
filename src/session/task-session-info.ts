import type { TaskSessionInfo } from './session-store.js';

/**
 * The task info `value` holds, its known fields only (what a store wrote is exactly what is
 * loaded back: anything else a planted record carries is dropped), or `undefined` when it is
 * not of the shape `saveTaskInfo` writes. The one check every store makes of a stored task
 * record (a file store's task file, a Redis record), so they cannot drift apart.
 *
 * @example
 * ```ts
 * taskSessionInfoOf(JSON.parse(text)); // TaskSessionInfo | undefined
 * ```
 */
export function taskSessionInfoOf(value: unknown): TaskSessionInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { taskId, agentName, description, ownerSessionId, parentSessionId } = value as Record<string, unknown>;
  if (typeof taskId !== 'string' || typeof agentName !== 'string' || typeof description !== 'string' || typeof ownerSessionId !== 'string') return undefined;
  if (parentSessionId === undefined) return { taskId, agentName, description, ownerSessionId };
  return typeof parentSessionId === 'string' ? { taskId, agentName, description, ownerSessionId, parentSessionId } : undefined;
}
