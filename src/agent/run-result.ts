import type { RunEndEvent } from '../events/agent-event.js';
import type { RunResult } from './run-types.js';

/**
 * The result of a run from its `RunEnd` and its session: what `call()` resolves with and a
 * started run's `result` holds. Built field by field, not with a rest and a spread: V8 copies
 * such an object and then adds the session on a slow path, about a microsecond a run.
 *
 * @example
 * ```ts
 * runResultOf(end, 'chat-1'); // { runId, text, abnormal, metrics, steps, sessionId: 'chat-1' }
 * ```
 */
export function runResultOf(end: RunEndEvent, sessionId: string): RunResult {
  const { runId, text, abnormal, error, metrics, steps } = end;
  return error === undefined ? { runId, text, abnormal, metrics, steps, sessionId } : { runId, text, abnormal, error, metrics, steps, sessionId };
}
