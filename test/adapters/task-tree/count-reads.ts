import type { TreeNode } from '../../../src/adapters/task-tree/index.js';

/**
 * Counts the reads of `node[field]` (`children` by default) from now on (the node keeps
 * answering them): a reducer that reads a node's child or tool-call list makes, so copies,
 * it, which the large-tree tests check it does not.
 */
export function countReads(node: TreeNode, field: 'children' | 'tools' = 'children'): () => number {
  const own = Object.getOwnPropertyDescriptor(node, field)!;
  let reads = 0;
  Object.defineProperty(node, field, {
    enumerable: true,
    configurable: true,
    get: () => {
      reads += 1;
      return own.get ? own.get.call(node) : own.value;
    },
  });
  return () => reads;
}
