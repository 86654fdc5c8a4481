/**
 * What a redraw must do to one row of the tree. The reducer makes a new node for every change
 * and keeps the same object for a node nothing changed, so a row whose node is the one it
 * last drew shows it already; only its time may have moved, and only while it runs.
 *
 * @module
 */
import type { TreeNode } from './client-imports.js';

/** `all`: write the whole row; `time`: only its elapsed time moves; `none`: leave it. */
export type RowChange = 'all' | 'time' | 'none';

/**
 * How a row that last drew `drawn` (undefined: never drawn) must change to show `node`.
 *
 * @example
 * ```ts
 * rowChange(undefined, node); // 'all'
 * rowChange(node, node);      // 'time' while it runs, else 'none'
 * ```
 */
export function rowChange(drawn: TreeNode | undefined, node: TreeNode): RowChange {
  if (drawn !== node) return 'all';
  // `elapsedMs` counts up to now only while the node has neither an end nor a measured duration
  return node.durationMs === undefined && node.endedAt === undefined ? 'time' : 'none';
}
