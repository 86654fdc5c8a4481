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
  const { taskId, agentName, description, ownerSessionId, parentSessionId, callId } = value as Record<string, unknown>;
  if (typeof taskId !== 'string' || typeof agentName !== 'string' || typeof description !== 'string' || typeof ownerSessionId !== 'string') return undefined;
  // Both optional: records saved before either was kept load as they were.
  if ((parentSessionId !== undefined && typeof parentSessionId !== 'string') || (callId !== undefined && typeof callId !== 'string')) return undefined;
  return {
    taskId,
    agentName,
    description,
    ownerSessionId,
    ...(parentSessionId === undefined ? {} : { parentSessionId }),
    ...(callId === undefined ? {} : { callId }),
  };
}
