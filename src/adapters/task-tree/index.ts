export {
  createTreeState, elapsedMs, RESULT_CHARS,
  type TaskTreeState, type ToolCallApproval, type ToolCallRecord, type ToolCallStatus, type TreeNode, type TreeStatus,
} from './tree-state.js';
export { reduceTree, settleTree, TAIL_CHARS } from './reduce-tree.js';
export { tokensByAgent, treeRows, waitingApprovals, type TreeRow, type WaitingApproval } from './tree-queries.js';
