/**
 * What the page takes from `rxharness/client` (the same module a user imports), plus the
 * RxJS type of a subscription.
 *
 * @module
 */
export {
  AbortError, answerApproval, cancelRun, cancelTask, createTreeState, elapsedMs, fromRun, getSession, listSessions, reduceTree, RunRequestError,
  settleTree, startRun, tokensByAgent, treeRows, waitingApprovals,
} from '../../client/index.js';
export type { ChatMessage, SessionSummary, TaskTreeState, ToolCallRecord, TreeNode, TreeStatus, WaitingApproval } from '../../client/index.js';
export type { Subscription } from 'rxjs';
