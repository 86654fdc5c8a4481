/**
 * What an end does below the node it ends: every task still going under it is settled. The
 * index knows which children have something going under them, so an end visits those only:
 * a forged stream ending a run with 10,000 tasks again and again cost a walk of all of them
 * per end (minutes of a frozen page); now each end costs what it settles.
 *
 * @module
 */
import { childAt, withChildAt } from './child-list.js';
import { changeKeepingLazy } from './lazy-fields.js';
import { settle, settledNode, withChildren, type Settling } from './tree-apply.js';
import { goingChildren, noteGoing, positionOf, type TreeIndex } from './tree-index.js';
import type { TreeNode } from './tree-state.js';

/** `node` with everything still going below it (not itself) settled as `settling` says. */
export function settleBelow(index: TreeIndex, node: TreeNode, now: number, settling: Settling): TreeNode {
  if (index.repeatsKeys) {
    // a tree made elsewhere with a key twice: the index does not see the second, a walk does
    return changeKeepingLazy(node, (fields) => withChildren(fields, fields.children.map((child) => settle(child, now, settling.reason, settling.status))));
  }
  let settled = node;
  for (const key of goingChildren(index, node.key)) {
    const at = positionOf(index, key);
    settled = withChildAt(settled, at, settleWithin(index, childAt(settled, at)!, now, settling));
  }
  return settled;
}

/** `node` and everything still going below it settled. */
function settleWithin(index: TreeIndex, node: TreeNode, now: number, settling: Settling): TreeNode {
  const below = settleBelow(index, node, now, settling);
  const settled = changeKeepingLazy(below, (fields) => settledNode(fields, now, settling));
  if (settled !== below) noteGoing(index, node.key, -1);
  return settled;
}
