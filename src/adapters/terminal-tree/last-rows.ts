import { childAt, childCount } from '../task-tree/child-list.js';
import type { TreeNode } from '../task-tree/tree-state.js';

/** One line of a drawn tree: its node and the box-drawing branch before it. */
export interface DrawnRow {
  /** The run or task the line shows. */
  readonly node: TreeNode;
  /** The branch drawn first (`├─ `, `│  └─ `...; empty for the root). */
  readonly branch: string;
}

/**
 * The last `limit` lines of the tree drawn from `root` (parents before their tasks), in
 * drawing order. It walks from the end (the last child first, a node after its tasks) and
 * stops once it has `limit`: it reads the nodes it returns and those on the way down to
 * them, never the rest of the tree, so a terminal frame of a run with 20,000 tasks costs
 * what the screen shows. Children are read one by one (`childAt`), never as the whole array.
 *
 * @param limit - How many lines at most (`Infinity`: all of them).
 */
export function lastRows(root: TreeNode, limit: number): DrawnRow[] {
  const rows: DrawnRow[] = []; // from the end: reversed once full
  const visit = (node: TreeNode, branch: string, indent: string): void => {
    // in drawing order a node's tasks come after it: from the end, they come first
    const count = childCount(node);
    for (let i = count - 1; i >= 0 && rows.length < limit; i -= 1) {
      const child = childAt(node, i);
      const last = i === count - 1;
      if (child !== undefined) visit(child, `${indent}${last ? '└─ ' : '├─ '}`, `${indent}${last ? '   ' : '│  '}`);
    }
    if (rows.length < limit) rows.push({ node, branch });
  };
  visit(root, '', '');
  return rows.reverse();
}
