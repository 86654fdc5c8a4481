export * from '../task-tree/index.js';
export { renderTree, formatDuration, type RenderTreeOptions } from './render-tree.js';
export { plainLine } from './plain-line.js';
export { toolLabel } from './tool-label.js';
export { liveTree, type LiveTreeOptions, type LiveTreeOutput } from './live-tree.js';
