import type { TreeNode } from '../../../src/adapters/task-tree/index.js';

/**
 * Counts the reads of `node.children` from now on (the node keeps answering them): a reducer
 * that reads a node's child list copies it, which the large-tree tests check it does not.
 */
export function countReads(node: TreeNode): () => number {
  const own = Object.getOwnPropertyDescriptor(node, 'children')!;
  let reads = 0;
  Object.defineProperty(node, 'children', {
    enumerable: true,
    configurable: true,
    get: () => {
      reads += 1;
      return own.get ? own.get.call(node) : own.value;
    },
  });
  return () => reads;
}
