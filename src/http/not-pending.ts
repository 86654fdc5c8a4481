import type { HarnessEngine } from '../engine/harness-engine.js';
import { HttpFailure } from './http-failure.js';

/**
 * The `404` of an answer that found no approval waiting. When the id the client sent is a
 * waiting call's id, it says how to answer instead: call ids are not unique (two tasks'
 * models may both pick `call_0`), so they never name an approval.
 */
export function notPending(engine: Pick<HarnessEngine, 'runs'>, runId: string, approvalId: string): HttpFailure {
  const shown = JSON.stringify(approvalId.length > 200 ? `${approvalId.slice(0, 200)}…` : approvalId);
  const byCall = engine.runs.pendingApprovals(runId).filter((p) => p.callId === approvalId);
  if (byCall.length > 0) {
    return new HttpFailure(
      404,
      `${shown} is a call id, not an approval id (${byCall.length} waiting call(s) of run "${runId}" have it): ` +
        'answer by the approvalId of its HITLPending event (POST /runs/:id/approvals/:approvalId)',
    );
  }
  return new HttpFailure(404, `no approval ${shown} (of that task) is pending in run "${runId}"`);
}
