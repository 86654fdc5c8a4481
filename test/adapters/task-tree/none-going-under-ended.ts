import { expect } from 'vitest';
import type { TaskTreeState, TreeNode } from '../../../src/adapters/task-tree/index.js';

const going = (node: TreeNode): boolean => node.status === 'running' || node.status === 'queued';

/**
 * Checks that no node of `state` goes (queued or running) under a node that has ended: no end
 * will come for it, so a view would show it running for ever under a finished run. Names the
 * first one found, with its parent.
 */
export function expectNoneGoingUnderEnded(state: TaskTreeState): void {
  // a stack, not recursion: the trees checked may be deep
  const stack: TreeNode[] = state.root === undefined ? [] : [state.root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!going(node)) {
      const live = node.children.find(going);
      expect(live === undefined ? undefined : `${live.key} ${live.status} under ${node.key} ${node.status}`).toBeUndefined();
    }
    stack.push(...node.children);
  }
}
