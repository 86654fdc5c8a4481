import { EventType, type AGUIEvent, type Interrupt } from '@ag-ui/core';
import type { RunEndEvent } from '../../events/agent-event.js';
import { errorMessage } from '../../errors/error-message.js';

/** The AG-UI run an event stream belongs to. */
export interface AgUiRunIds {
  /** The thread: our session. */
  readonly threadId: string;
  /** The AG-UI run (the client's `runId`). */
  readonly runId: string;
}

/** `RUN_STARTED`. */
export function runStarted(ids: AgUiRunIds): AGUIEvent {
  return { type: EventType.RUN_STARTED, threadId: ids.threadId, runId: ids.runId };
}

/**
 * The terminal event of a run that reached its own `RunEnd`: `RUN_FINISHED` with the answer
 * as `result` and the tokens of the whole tree as `usage`, or `RUN_ERROR` when it ended abnormally.
 */
export function runEnded(ids: AgUiRunIds, end: RunEndEvent): AGUIEvent {
  if (end.abnormal) return { type: EventType.RUN_ERROR, message: end.error ?? 'the run failed', code: 'run_failed' };
  const { promptTokens, completionTokens, totalTokens } = end.metrics;
  return {
    type: EventType.RUN_FINISHED,
    threadId: ids.threadId,
    runId: ids.runId,
    result: end.text,
    usage: [{ inputTokens: promptTokens, outputTokens: completionTokens, totalTokens }],
  };
}

/** `RUN_ERROR` for a run whose stream failed (cancelled, refused, broken). */
export function runFailed(error: unknown): AGUIEvent {
  const code = error instanceof Error && typeof error.name === 'string' ? error.name : 'Error';
  return { type: EventType.RUN_ERROR, message: errorMessage(error), code };
}

/**
 * `RUN_FINISHED` of an AG-UI run that stops while our run waits for the client: with the
 * approvals it asks for as interrupts, else (frontend tool calls only) a success naming the
 * calls left for the client to answer.
 */
export function runWaiting(ids: AgUiRunIds, interrupts: readonly Interrupt[], pendingToolCallIds: readonly string[]): AGUIEvent {
  const outcome =
    interrupts.length > 0
      ? { type: 'interrupt' as const, interrupts: [...interrupts] }
      : { type: 'success' as const, pendingToolCallIds: [...pendingToolCallIds] };
  return { type: EventType.RUN_FINISHED, threadId: ids.threadId, runId: ids.runId, outcome };
}
