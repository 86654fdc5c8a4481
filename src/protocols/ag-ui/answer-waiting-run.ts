import { EventType, type AGUIEvent, type ResumeEntry } from '@ag-ui/core';
import { HttpFailure } from '../../http/http-failure.js';
import type { ApprovalDecision } from '../../permission/approval.js';
import type { ToolResult } from '../../tools/tool.js';
import type { ProtocolEngine } from '../protocol-engine.js';
import type { AgUiRequest } from './run-agent-input.js';
import type { AgUiRunState } from './waiting-threads.js';

/** What a frontend call nobody answered returns to the model. */
const NOT_RUN = 'ERROR: the frontend did not run this tool (its result was not sent); do not assume it ran.';

/**
 * Gives a waiting run what the thread's next request brings: the results of its frontend
 * tool calls (tool messages naming them by the ids the client was shown, which are mapped back
 * to the model's: a tool message naming no call of ours, or an earlier call of a model id used
 * again since, answers nothing) and the answers to its approvals (`resume` entries
 * naming the interrupts; `cancelled` rejects; an answer to an approval decided meanwhile is
 * reported at the start of the next AG-UI run, a `CUSTOM` `rxharness.ResumeNotApplied`). What the client was shown and left unanswered
 * is settled too, so the run never waits for an answer that will not come: an approval is
 * rejected, a frontend call returns an error. Returns whether the request answered anything
 * (if not, it starts a new turn, and the waiting run is abandoned).
 *
 * @throws HttpFailure `400` for a resume payload that is not a decision (nothing is applied then).
 */
export function answerWaitingRun(engine: ProtocolEngine, state: AgUiRunState, input: AgUiRequest): boolean {
  const decisions = input.resume.filter((entry) => state.interrupts.has(entry.interruptId)).map((entry) => [entry.interruptId, decisionOf(entry)] as const);
  const results: Array<readonly [string, ToolResult]> = [];
  for (const [toolCallId, result] of input.toolResults) {
    const callId = state.mapper.callIdOf(toolCallId);
    if (callId !== undefined && state.calls.expects(callId)) results.push([callId, result]);
  }
  if (decisions.length === 0 && results.length === 0) return false;
  for (const [callId, result] of results) {
    state.calls.answer(callId, result);
    state.mapper.answered(callId);
  }
  for (const callId of state.calls.asked()) state.calls.answer(callId, { text: NOT_RUN, error: 'the frontend sent no result' });
  const answered = new Map(decisions);
  for (const approvalId of state.interrupts) {
    const decision = answered.get(approvalId) ?? { decision: 'reject', comment: 'The user did not answer this approval.' };
    const taken = engine.runs.answer(state.run.runId, approvalId, decision);
    // Decided meanwhile (the runs API, its timeout): the client hears its answer did nothing.
    if (!answered.has(approvalId)) {
      if (taken instanceof Promise) taken.catch(() => undefined); // an answer nobody gave: its fate is nobody's news
      continue;
    }
    // A run owned elsewhere (shared backend) answers later, with a promise: its refusal (false,
    // or `AnswerNotAppliedError`) is a note for the next AG-UI run that starts after it settles.
    if (taken instanceof Promise) taken.then((ok) => ok || state.notes.push(notApplied(approvalId)), () => state.notes.push(notApplied(approvalId)));
    else if (!taken) state.notes.push(notApplied(approvalId));
  }
  state.interrupts.clear();
  return true;
}

/** The note that a resume entry's answer was not taken: its approval no longer waits. */
function notApplied(interruptId: string): AGUIEvent {
  return {
    type: EventType.CUSTOM,
    name: 'rxharness.ResumeNotApplied',
    value: { interruptId, reason: 'the approval was already decided (elsewhere, or it timed out); this answer did nothing' },
  };
}

/** A resume entry's payload as a decision: `{ decision, comment? }`, `"approve"`/`"reject"`/`"always"`, or `{ approved: boolean }`. */
function decisionOf(entry: ResumeEntry): ApprovalDecision {
  if (entry.status === 'cancelled') return { decision: 'reject', comment: 'The user cancelled this call.' };
  const payload: unknown = entry.payload;
  const word = typeof payload === 'string' ? payload : isObject(payload) ? payload['decision'] : undefined;
  const comment = isObject(payload) && typeof payload['comment'] === 'string' ? { comment: payload['comment'] } : {};
  if (word === 'approve' || word === 'reject' || word === 'always') return { decision: word, ...comment };
  if (isObject(payload) && typeof payload['approved'] === 'boolean') return { decision: payload['approved'] ? 'approve' : 'reject', ...comment };
  throw new HttpFailure(
    400,
    `resume entry for interrupt ${JSON.stringify(entry.interruptId)}: the payload must be { "decision": "approve" | "reject" | "always", "comment"?: string }, got ${JSON.stringify(payload) ?? 'nothing'}`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
