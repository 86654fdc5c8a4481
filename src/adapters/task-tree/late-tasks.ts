/**
 * A task told of under a node that has ended: a `TaskWrap` of a child never seen before (or
 * the restart of one) arriving after its parent's end, cancel or `settleTree`. Nothing runs
 * under an ended run, and no end will come for such a task: shown running, it ran for ever
 * under a finished run. The reducer keeps it (nothing is lost) but settles it at once, as
 * `withTools` does a late call ({@link LATE_TASK}), so its calls and approvals wait neither.
 *
 * @module
 */
import { childAt } from './child-list.js';
import { isGoing, settledNode, type Settling } from './tree-apply.js';
import type { TreeNode } from './tree-state.js';

/** Why a task told of after its parent had ended was ended at once (its calls still going too). */
export const LATE_TASK = 'came after its parent run had ended';

/**
 * How a node going under `parent` is settled: undefined while `parent` goes; else `failed`
 * (`cancelled` under a cancelled parent), with {@link LATE_TASK}.
 */
export function lateSettling(parent: TreeNode): Settling | undefined {
  if (isGoing(parent)) return undefined;
  return { reason: LATE_TASK, status: parent.status === 'cancelled' ? 'cancelled' : 'failed' };
}

/** The node at `path` below `root` (child positions), read without making any child list. */
export function nodeAt(root: TreeNode, path: readonly number[]): TreeNode {
  let node = root;
  for (const at of path) node = childAt(node, at)!;
  return node;
}

/** `node`, new under `parent`, settled at once when `parent` has ended. */
export function settledUnder(parent: TreeNode, node: TreeNode, now: number): TreeNode {
  const late = lateSettling(parent);
  return late === undefined ? node : settledNode(node, now, late);
}
