import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from '../permission/approval.js';
import type { RunRegistry } from '../runs/run-registry.js';

const NOBODY: ApprovalDecision = { decision: 'reject', comment: 'no approval handler is configured (fail-closed)' };

/**
 * The approval handler of an engine's agents. A call in a run started with `engine.start()`
 * (anywhere in its tree: `rootRunId` names the run at the top) waits to be answered through
 * `engine.runs.answer` by its approval id (over HTTP: `POST /runs/:id/approvals/:approvalId`), and, when the engine
 * has an `approve` handler too, that handler is asked at the same time: the first answer
 * wins and the other is withdrawn. Any other call goes to the handler, or is rejected
 * (fail-closed) without one.
 *
 * @example
 * ```ts
 * const approve = approvalRouter(runs, options.approve);
 * ```
 */
export function approvalRouter(runs: RunRegistry, handler: ApprovalHandler | undefined): ApprovalHandler {
  return (request: ApprovalRequest, { signal }) => {
    const root = request.rootRunId;
    if (root === undefined || runs.get(root)?.state !== 'running') return handler ? handler(request, { signal }) : NOBODY;
    // A request relayed from a worker is JSON from Redis: without its id nobody could answer it.
    if (typeof request.approvalId !== 'string' || request.approvalId === '') return { decision: 'reject', comment: 'the approval request carries no approval id (fail-closed)' };
    const withdraw = new AbortController();
    const stop = (): void => withdraw.abort();
    // Already aborted (the call was cancelled as it asked): 'abort' will not fire again, and a
    // question nobody withdraws would wait in the run until it ends.
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    const { approvalId, callId, toolName, agentName, taskId } = request;
    const answers = [runs.approvals.wait(root, { approvalId, callId, toolName, agentName, ...(taskId !== undefined ? { taskId } : {}) }, withdraw.signal)];
    if (handler) answers.push(Promise.resolve().then(() => handler(request, { signal: withdraw.signal })));
    return Promise.race(answers).finally(() => {
      signal.removeEventListener('abort', stop);
      withdraw.abort(); // the answer that lost stops waiting
    });
  };
}
