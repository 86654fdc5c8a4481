/**
 * Where each node of a task tree is, so that the reducer finds a task's node, or the node
 * running a run, without walking the tree: with thousands of tasks a walk per event made
 * folding a run quadratic (3,000 tasks took 25 s).
 *
 * The index lives beside the tree, in a `WeakMap` keyed by the root it describes (the tree's
 * public shape stays plain data). The reducer is pure, so an old state may be reduced again
 * (React calls a reducer twice in strict mode): an index only ever serves the newest root of
 * its line, and any other root gets a fresh index, built in one walk.
 *
 * @module
 */
import { childAt, childCount, withChildAt } from './child-list.js';
import type { TreeNode } from './tree-state.js';

/** A node's parent (its key; undefined for the root) and its position among the parent's children. */
interface Place {
  readonly parent: string | undefined;
  at: number;
}

/** The places of one tree's nodes, by key and by run. */
export interface TreeIndex {
  /** The root this index describes; undefined while a change is being made (a throw then leaves it unused). */
  head: TreeNode | undefined;
  readonly places: Map<string, Place>;
  /** The keys of the nodes running each run (one, unless a stream repeats a run id). */
  readonly byRunId: Map<string, Set<string>>;
  /** The highest `taskIndex` among the multitask children of each node and call (see `addChild`). */
  readonly highest: Map<string, number>;
}

const INDEXES = new WeakMap<TreeNode, TreeIndex>();

/**
 * The index of `root`, to change along with it: the one kept for it when `root` is the
 * newest tree of its line, else a new one (an older tree reduced again, or one not made by
 * the reducer). Call {@link settleIndex} with the new root when done.
 */
export function openIndex(root: TreeNode): TreeIndex {
  const kept = INDEXES.get(root);
  const index = kept !== undefined && kept.head === root ? kept : buildIndex(root);
  index.head = undefined;
  return index;
}

/** Makes `index` the index of `root` (the tree the change produced). */
export function settleIndex(index: TreeIndex, root: TreeNode): void {
  index.head = root;
  INDEXES.set(root, index);
}

/** Moves the index of `from` to `to`, a tree of the same nodes in the same places (their states changed). */
export function carryIndex(from: TreeNode, to: TreeNode): void {
  const kept = INDEXES.get(from);
  if (kept !== undefined && kept.head === from) settleIndex(kept, to);
}

function buildIndex(root: TreeNode): TreeIndex {
  const index: TreeIndex = { head: undefined, places: new Map(), byRunId: new Map(), highest: new Map() };
  // A stack, not recursion: a tree given to the reducer may be deeper than it would make one.
  const stack: { node: TreeNode; place: Place }[] = [{ node: root, place: { parent: undefined, at: 0 } }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, place } = next;
    // depth first, so the first node to take a key or a run is the one a walk would find first
    if (index.places.has(node.key)) continue;
    index.places.set(node.key, place);
    addRun(index, node.runId, node.key);
    if (place.parent !== undefined && node.multitask) noteHighest(index, place.parent, node);
    for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push({ node: node.children[i]!, place: { parent: node.key, at: i } });
  }
  return index;
}

/** The child positions leading from the root to the node of `key`. */
export function pathOf(index: TreeIndex, key: string): number[] | undefined {
  const path: number[] = [];
  for (let place = index.places.get(key); place?.parent !== undefined; place = index.places.get(place.parent)) path.push(place.at);
  return index.places.has(key) ? path.reverse() : undefined;
}

/** The path of the node running `runId` (the first in drawing order, should two claim it). */
export function runPath(index: TreeIndex, runId: string | undefined): number[] | undefined {
  const keys = runId === undefined ? undefined : index.byRunId.get(runId);
  let first: number[] | undefined;
  for (const key of keys ?? []) {
    const path = pathOf(index, key)!;
    if (first === undefined || before(path, first)) first = path;
  }
  return first;
}

/** Records that the node of `key` now runs `after` instead of `before`. */
export function changeRun(index: TreeIndex, key: string, before: string, after: string): void {
  if (before === after) return;
  const keys = index.byRunId.get(before);
  keys?.delete(key);
  if (keys?.size === 0) index.byRunId.delete(before);
  addRun(index, after, key);
}

/**
 * `node` with `change` applied to the node at `path` below it: new nodes along the path, the
 * rest shared, and no child list copied (see `child-list.ts`).
 */
export function updateAt(node: TreeNode, path: readonly number[], change: (node: TreeNode) => TreeNode, depth = 0): TreeNode {
  if (depth === path.length) return change(node);
  const at = path[depth]!;
  return withChildAt(node, at, updateAt(childAt(node, at)!, path, change, depth + 1));
}

/**
 * `root` with `child` (a new node, without children) added under the node at `parentPath`:
 * after the others, except that a multitask child goes before the later items of its own
 * call (a queued #2 may be seen before #1 starts). The highest index of each call is kept,
 * so the common case, a child in order, needs no look at its siblings.
 */
export function addChild(index: TreeIndex, root: TreeNode, parentPath: readonly number[], child: TreeNode): TreeNode {
  return updateAt(root, parentPath, (parent) => {
    const call = callOf(child);
    const ownIndex = child.taskIndex ?? 0;
    const later = child.multitask && (index.highest.get(`${parent.key}\n${call}`) ?? -Infinity) > ownIndex;
    const at = later ? parent.children.findIndex((other) => other.multitask && callOf(other) === call && (other.taskIndex ?? 0) > ownIndex) : -1;
    if (at === -1) {
      // the common case: after the others, with no copy of them
      const last = childCount(parent);
      index.places.set(child.key, { parent: parent.key, at: last });
      noteChild(index, parent.key, child);
      return withChildAt(parent, last, child);
    }
    const children = [...parent.children.slice(0, at), child, ...parent.children.slice(at)];
    for (let i = at + 1; i < children.length; i += 1) index.places.get(children[i]!.key)!.at = i;
    index.places.set(child.key, { parent: parent.key, at });
    noteChild(index, parent.key, child);
    return { ...parent, children };
  });
}

/** Records a new child's run and, for a multitask child, its call's highest index. */
function noteChild(index: TreeIndex, parent: string, child: TreeNode): void {
  addRun(index, child.runId, child.key);
  if (child.multitask) noteHighest(index, parent, child);
}

/** The run that delegated a task (the first part of its key). */
function callOf(node: TreeNode): string {
  return node.key.slice(0, node.key.lastIndexOf('/'));
}

function noteHighest(index: TreeIndex, parent: string, child: TreeNode): void {
  const group = `${parent}\n${callOf(child)}`;
  index.highest.set(group, Math.max(index.highest.get(group) ?? -Infinity, child.taskIndex ?? 0));
}

function addRun(index: TreeIndex, runId: string, key: string): void {
  const keys = index.byRunId.get(runId);
  if (keys === undefined) index.byRunId.set(runId, new Set([key]));
  else keys.add(key);
}

/** Whether path `a` comes before path `b` in drawing order (depth first, parents first). */
function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}
