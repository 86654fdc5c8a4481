/**
 * Where each node of a task tree is, so that the reducer finds a task's node, or the node
 * running a run, without walking the tree: with thousands of tasks a walk per event made
 * folding a run quadratic (3,000 tasks took 25 s). It also knows each node's children in
 * order, however they arrived (`rank-tree.ts`), and what still goes under each node, so an
 * end settles only that (`settle-below.ts`).
 *
 * The index lives beside the tree, in a `WeakMap` keyed by the root it describes (the tree's
 * public shape stays plain data). The reducer is pure, so an old state may be reduced again
 * (React calls a reducer twice in strict mode): an index only ever serves the newest root of
 * its line, and any other root gets a fresh index, built in one walk.
 *
 * @module
 */
import { childAt, childCount, withChildAt, withChildBefore } from './child-list.js';
import { RankTree, rankOf, type RankNode } from './rank-tree.js';
import { isGoing } from './tree-apply.js';
import type { TreeNode } from './tree-state.js';

/** A node's parent (its key; undefined for the root) and its place among the parent's children (its position: `rankOf`). */
interface Place {
  readonly parent: string | undefined;
  readonly slot: RankNode<string> | undefined;
}

/** A multitask child among those of its call under one node: its index, and its place among all the node's children. */
interface Member {
  readonly taskIndex: number;
  readonly slot: RankNode<string>;
}

/**
 * The multitask children of one node and call. A tree the reducer made keeps them in order
 * of their `taskIndex` (each goes before the first with a higher one), so the first later
 * one is found by a binary search; a tree made elsewhere may not (`sorted` false), and is
 * then searched child by child, as the rule says.
 */
interface Call {
  readonly members: RankTree<Member>;
  sorted: boolean;
}

/** One node's children: in order (their keys; a repeated key too), and the multitask ones by call (see `addChild`). */
interface Children {
  readonly order: RankTree<string>;
  readonly calls: Map<string, Call>;
}

/** The places of one tree's nodes, by key and by run. */
export interface TreeIndex {
  /** The root this index describes; undefined while a change is being made (a throw then leaves it unused). */
  head: TreeNode | undefined;
  readonly places: Map<string, Place>;
  /**
   * The keys of the nodes running each run (one, unless a stream repeats a run id), in
   * drawing order: the first is the one a task of that run goes under, found at once
   * however many claim the run (the order of existing nodes never changes).
   */
  readonly byRunId: Map<string, string[]>;
  /** Each node's children, by the node's key. */
  readonly children: Map<string, Children>;
  /** What still goes (queued or running) under each node (see {@link noteGoing}); none: nothing. */
  readonly live: Map<string, Live>;
  /** True for a tree made elsewhere that repeats a key: what goes is then found by a walk. */
  repeatsKeys: boolean;
}

/** The nodes still going in one node's subtree (itself included), and its children with some. */
interface Live {
  count: number;
  readonly children: Set<string>;
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

/** Moves the index of `from` to `to`, the same nodes in the same places, every one of them settled (`settleTree`). */
export function carrySettledIndex(from: TreeNode, to: TreeNode): void {
  const kept = INDEXES.get(from);
  if (kept === undefined || kept.head !== from) return;
  kept.live.clear(); // nothing goes any more
  settleIndex(kept, to);
}

function buildIndex(root: TreeNode): TreeIndex {
  const index: TreeIndex = { head: undefined, places: new Map(), byRunId: new Map(), children: new Map(), live: new Map(), repeatsKeys: false };
  // A stack, not recursion: a tree given to the reducer may be deeper than it would make one.
  const stack: { node: TreeNode; place: Place }[] = [{ node: root, place: { parent: undefined, slot: undefined } }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, place } = next;
    // depth first, so the first node to take a key or a run is the one a walk would find first
    if (index.places.has(node.key)) {
      index.repeatsKeys = true;
      continue;
    }
    index.places.set(node.key, place);
    addRun(index, node.runId, node.key);
    if (isGoing(node)) noteGoing(index, node.key, 1);
    if (node.children.length === 0) continue; // a leaf: its children are made on first use
    const children = childrenOf(index, node.key);
    const slots = node.children.map((child) => noteChild(children, child, children.order.size, true));
    for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push({ node: node.children[i]!, place: { parent: node.key, slot: slots[i] } });
  }
  return index;
}

/** The child positions leading from the root to the node of `key`. */
export function pathOf(index: TreeIndex, key: string): number[] | undefined {
  const path: number[] = [];
  for (let place = index.places.get(key); place?.parent !== undefined; place = index.places.get(place.parent)) path.push(rankOf(place.slot!));
  return index.places.has(key) ? path.reverse() : undefined;
}

/** The path of the node running `runId` (the first in drawing order, should two claim it). */
export function runPath(index: TreeIndex, runId: string | undefined): number[] | undefined {
  const first = runId === undefined ? undefined : index.byRunId.get(runId)?.[0];
  return first === undefined ? undefined : pathOf(index, first);
}

/** Records that the node of `key` now runs `after` instead of `before`. */
export function changeRun(index: TreeIndex, key: string, before: string, after: string): void {
  if (before === after) return;
  const keys = index.byRunId.get(before);
  if (keys !== undefined) {
    const at = rankAmong(index, keys, pathOf(index, key)!);
    if (keys[at] === key) keys.splice(at, 1);
    if (keys.length === 0) index.byRunId.delete(before);
  }
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
 * after the others, except that a multitask child goes before the first child of its own
 * call with a higher index (a queued #2 may be seen before #1 starts). However the children
 * arrive (in order, last first, shuffled), each costs O(log n) of its siblings.
 */
export function addChild(index: TreeIndex, root: TreeNode, parentPath: readonly number[], child: TreeNode): TreeNode {
  return updateAt(root, parentPath, (parent) => {
    const children = childrenOf(index, parent.key);
    const at = insertionPoint(children, parent, child);
    const slot = noteChild(children, child, at, false);
    index.places.set(child.key, { parent: parent.key, slot });
    addRun(index, child.runId, child.key);
    if (isGoing(child)) noteGoing(index, child.key, 1);
    return at === childCount(parent) ? withChildAt(parent, at, child) : withChildBefore(parent, at, child);
  });
}

/**
 * Records that the node of `key` started (1) or stopped (-1) going, in the counts of its
 * subtree and of every one above it: an end then finds what it settles without a walk.
 */
export function noteGoing(index: TreeIndex, key: string, change: 1 | -1): void {
  for (let at: string | undefined = key; at !== undefined; ) {
    const live = liveOf(index, at);
    const was = live.count;
    live.count += change;
    if (live.count === 0) index.live.delete(at);
    const parent: string | undefined = index.places.get(at)?.parent;
    if (parent !== undefined && was === 0) liveOf(index, parent).children.add(at);
    if (parent !== undefined && live.count === 0) index.live.get(parent)?.children.delete(at);
    at = parent;
  }
}

/** The keys of the children of the node of `key` with something still going under them (or in them). */
export function goingChildren(index: TreeIndex, key: string): readonly string[] {
  return [...(index.live.get(key)?.children ?? [])];
}

/** The position of the node of `key` among its parent's children. */
export function positionOf(index: TreeIndex, key: string): number {
  const slot = index.places.get(key)?.slot;
  return slot === undefined ? 0 : rankOf(slot);
}

function liveOf(index: TreeIndex, key: string): Live {
  let live = index.live.get(key);
  if (live === undefined) {
    live = { count: 0, children: new Set() };
    index.live.set(key, live);
  }
  return live;
}

/** Where among `parent`'s children a new `child` goes (see {@link addChild}). */
function insertionPoint(children: Children, parent: TreeNode, child: TreeNode): number {
  const last = childCount(parent);
  const call = child.multitask ? children.calls.get(callOf(child)) : undefined;
  if (call === undefined) return last;
  const own = child.taskIndex ?? 0;
  if (!call.sorted) {
    const at = parent.children.findIndex((other) => other.multitask && callOf(other) === callOf(child) && (other.taskIndex ?? 0) > own);
    return at === -1 ? last : at;
  }
  const later = call.members.at(call.members.countBefore((member) => member.taskIndex > own));
  return later === undefined ? last : rankOf(later.slot);
}

/**
 * Records `child` at position `at` among `children`, and among its call's when it is a
 * multitask child; returns its slot. `asFound`: the child
 * is read from a tree made elsewhere, in its place whatever its index (else it was put
 * where `insertionPoint` said).
 */
function noteChild(children: Children, child: TreeNode, at: number, asFound: boolean): RankNode<string> {
  const slot = children.order.insertAt(at, child.key);
  if (!child.multitask) return slot;
  let call = children.calls.get(callOf(child));
  if (call === undefined) {
    call = { members: new RankTree(), sorted: true };
    children.calls.set(callOf(child), call);
  }
  const own = child.taskIndex ?? 0;
  const { members } = call;
  const rank = call.sorted ? members.countBefore((member) => member.taskIndex > own) : members.size;
  // out of order: found before a higher index, or no number to order by (NaN: never higher, never lower)
  if ((asFound && rank !== members.size) || Number.isNaN(own)) call.sorted = false;
  members.insertAt(rank, { taskIndex: own, slot });
  return slot;
}

/** The children of the node of `key`, made empty on first use. */
function childrenOf(index: TreeIndex, key: string): Children {
  let children = index.children.get(key);
  if (children === undefined) {
    children = { order: new RankTree(), calls: new Map() };
    index.children.set(key, children);
  }
  return children;
}

/** The run that delegated a task (the first part of its key). */
function callOf(node: TreeNode): string {
  return node.key.slice(0, node.key.lastIndexOf('/'));
}

/** Adds the node of `key` (in the index already) to those running `runId`, in its place in drawing order. */
function addRun(index: TreeIndex, runId: string, key: string): void {
  const keys = index.byRunId.get(runId);
  if (keys === undefined) return void index.byRunId.set(runId, [key]);
  const at = rankAmong(index, keys, pathOf(index, key)!);
  if (keys[at] !== key) keys.splice(at, 0, key);
}

/** How many of `keys` (in drawing order) come before the node at `path`: a binary search. */
function rankAmong(index: TreeIndex, keys: readonly string[], path: readonly number[]): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(pathOf(index, keys[mid]!)!, path)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether path `a` comes before path `b` in drawing order (depth first, parents first). */
function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}
