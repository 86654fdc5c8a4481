/**
 * The task-tree reducer as it was before it kept an index (a walk of the tree per item):
 * slow, but plainly right. The property test folds random streams through both. Only the
 * navigation is kept here; what an item does to its node is shared (`tree-apply.ts`).
 *
 * @module
 */
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { unwrapEvent, type TaskFrame } from '../../../src/events/operators/unwrap-task-events.js';
import { toUiItem } from '../../../src/adapters/ui-dto.js';
import type { UiItem } from '../../../src/adapters/ui-item.js';
import { LATE_TASK } from '../../../src/adapters/task-tree/late-tasks.js';
import { apply as applyToNode, rootFor, settle, settledNode, settlingOf, taskNode, withChildren } from '../../../src/adapters/task-tree/tree-apply.js';
import type { TaskTreeState, TreeNode } from '../../../src/adapters/task-tree/tree-state.js';

export function referenceReduceTree(state: TaskTreeState, input: AgentEvent | UiItem, now: number): TaskTreeState {
  const item = 'type' in input ? toUiItem(input) : input;
  if (item === undefined || item.depth > 64) return state;
  let root = state.root ?? rootFor(item, now);
  if ('type' in input && item.depth > 1) root = withAncestors(root, unwrapEvent(input).path.slice(0, -1), now);
  const next = item.groupKey === undefined ? apply(root, item, now, true) : updateTask(root, item, item.groupKey, now);
  if (item.kind === 'result') {
    const { text, abnormal, error } = item;
    return { root: next, result: error === undefined ? { text, abnormal } : { text, abnormal, error } };
  }
  return { ...state, root: next };
}

/** An item applied to `node`, and (an end) what still goes below it settled, by a walk. */
function apply(node: TreeNode, item: UiItem, now: number, isRoot: boolean): TreeNode {
  const changed = applyToNode(node, item, now, isRoot);
  const settling = settlingOf(item);
  return settling === undefined ? changed : withChildren(changed, changed.children.map((child) => settle(child, now, settling.reason, settling.status)));
}

function updateTask(root: TreeNode, item: UiItem, key: string, now: number): TreeNode {
  const path = findPath(root, (node) => node.key === key);
  if (path !== undefined) return updateAt(root, path, (node) => endedUnder(nodeAt(root, path.slice(0, -1)), apply(node, item, now, false), now));
  const parent = findPath(root, (node) => node.runId === item.parentRunId) ?? [];
  const created = endedUnder(nodeAt(root, parent), apply(taskNode(item, key, now), item, now, false), now);
  return updateAt(root, parent, (node) => withChildren(node, withChild(node.children, created)));
}

const going = (node: TreeNode): boolean => node.status === 'running' || node.status === 'queued';

/** `node` under `parent`: when it goes under a parent that has ended, it and all below it ended at once. */
function endedUnder(parent: TreeNode, node: TreeNode, now: number): TreeNode {
  if (going(parent) || !going(node)) return node;
  const status = parent.status === 'cancelled' ? 'cancelled' : 'failed';
  const ended = settledNode(node, now, { reason: LATE_TASK, status });
  return withChildren(ended, ended.children.map((child) => settle(child, now, LATE_TASK, status)));
}

function nodeAt(root: TreeNode, path: readonly number[]): TreeNode {
  return path.reduce((node, at) => node.children[at]!, root);
}

function withChild(children: readonly TreeNode[], child: TreeNode): TreeNode[] {
  const call = callOf(child);
  const at = child.multitask ? children.findIndex((other) => other.multitask && callOf(other) === call && (other.taskIndex ?? 0) > (child.taskIndex ?? 0)) : -1;
  return at === -1 ? [...children, child] : [...children.slice(0, at), child, ...children.slice(at)];
}

function callOf(node: TreeNode): string {
  return node.key.slice(0, node.key.lastIndexOf('/'));
}

function withAncestors(root: TreeNode, frames: readonly TaskFrame[], now: number): TreeNode {
  let tree = root;
  for (const frame of frames) {
    const key = `${frame.parentRunId}/${frame.taskId}`;
    if (findPath(tree, (node) => node.key === key) !== undefined) continue;
    const item = { kind: 'task-start', ...frame, agentName: frame.taskAgentName, depth: 0, groupKey: key, sessionId: frame.taskId, prompt: '' } as const;
    const parent = findPath(tree, (node) => node.runId === frame.parentRunId) ?? [];
    const created = endedUnder(nodeAt(tree, parent), taskNode(item, key, now), now);
    tree = updateAt(tree, parent, (node) => withChildren(node, withChild(node.children, created)));
  }
  return tree;
}

function findPath(node: TreeNode, match: (node: TreeNode) => boolean): number[] | undefined {
  if (match(node)) return [];
  for (let i = 0; i < node.children.length; i += 1) {
    const below = findPath(node.children[i]!, match);
    if (below !== undefined) return [i, ...below];
  }
  return undefined;
}

function updateAt(node: TreeNode, path: readonly number[], change: (n: TreeNode) => TreeNode): TreeNode {
  const [index, ...rest] = path;
  if (index === undefined) return change(node);
  return withChildren(node, node.children.map((child, i) => (i === index ? updateAt(child, rest, change) : child)));
}
