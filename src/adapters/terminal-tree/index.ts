export { createTreeState, elapsedMs, type TaskTreeState, type TreeNode, type TreeStatus } from './tree-state.js';
export { reduceTree, settleTree, TAIL_CHARS } from './reduce-tree.js';
export { renderTree, formatDuration, type RenderTreeOptions } from './render-tree.js';
export { plainLine } from './plain-line.js';
export { toolLabel } from './tool-label.js';
export { liveTree, type LiveTreeOptions, type LiveTreeOutput } from './live-tree.js';
