/**
 * A node's children without a copy of the whole list per item. The reducer is pure: every
 * state keeps its own `children` arrays, unchanged, so an item for one of 10,000 tasks copied
 * its parent's list of 10,000 (a multitask of 10,000 folded in quadratic time), and so did a
 * task arriving before its siblings (inserted at the front). Here a node with many children
 * keeps them in a persistent treap: a change, at a position or inserted anywhere, makes
 * O(log n) new cells and shares the rest with the states before, which keep theirs. A
 * state's `children` array is made the first time it is read, and then kept (see
 * `lazy-fields.ts`, which tool calls share): a reader pays
 * for the arrays it reads (as a page drawing each frame does). A node with few children
 * keeps a plain array, copied per change: cheaper at that size.
 *
 * @module
 */
import { lazySource, withField, withLazy, type LazyArray } from './lazy-fields.js';
import { treapPriority } from './rank-tree.js';
import type { TreeNode } from './tree-state.js';

/** One cell of a persistent treap of children, in order: never changed once made. */
interface Cell {
  readonly child: TreeNode;
  readonly left: Cell | undefined;
  readonly right: Cell | undefined;
  /** The children in the subtree rooted here. */
  readonly size: number;
  readonly priority: number;
  /** The approvals waiting under the children of this subtree (their `waitingInSubtree`); undefined when one is unknown. */
  readonly waiting: number | undefined;
}

/** One version of a node's child list: its cells, and the array once read. */
class ChildList implements LazyArray<TreeNode> {
  #array: readonly TreeNode[] | undefined;

  constructor(readonly root: Cell | undefined) {}

  get length(): number {
    return sizeOf(this.root);
  }

  at(i: number): TreeNode | undefined {
    let cell = this.root;
    let rest = i;
    while (cell !== undefined) {
      const left = sizeOf(cell.left);
      if (rest === left) return cell.child;
      if (rest < left) cell = cell.left;
      else {
        rest -= left + 1;
        cell = cell.right;
      }
    }
    return undefined;
  }

  /** The list as an array, made on first read and then the same array each time. */
  read(): readonly TreeNode[] {
    this.#array ??= inOrder(this.root);
    return this.#array;
  }
}

/** The list behind `node`, when the reducer made it with one; other nodes have a plain `children` array. */
function listOf(node: TreeNode): ChildList | undefined {
  const source = lazySource(node, 'children');
  return source instanceof ChildList ? source : undefined;
}

/** Below this many children a plain copy costs less than a shared list: the few children most nodes have. */
const SHARED_FROM = 64;

/** How many children `node` has. */
export function childCount(node: TreeNode): number {
  return listOf(node)?.length ?? node.children.length;
}

/** The child of `node` at `i`. */
export function childAt(node: TreeNode, i: number): TreeNode | undefined {
  const list = listOf(node);
  return list === undefined ? node.children[i] : list.at(i);
}

/** A new `node` with `child` at `i`, in place of the one there (`i === childCount(node)`: after the others); `node` keeps its own. */
export function withChildAt(node: TreeNode, i: number, child: TreeNode): TreeNode {
  const list = listOf(node);
  if (list === undefined && node.children.length < SHARED_FROM) {
    const children = node.children.slice();
    children[i] = child;
    return counted(withField(node, 'children', children), waitingAmong(children));
  }
  const root = list?.root ?? balanced(node.children, 0, node.children.length);
  const cells = i === sizeOf(root) ? inserted(root, i, child, treapPriority()) : replaced(root!, i, child);
  return counted(withLazy(node, 'children', new ChildList(cells)), waitingOf(cells));
}

/** A new `node` with `child` inserted at `i`, before the child there; `node` keeps its own. */
export function withChildBefore(node: TreeNode, i: number, child: TreeNode): TreeNode {
  const list = listOf(node);
  if (list === undefined && node.children.length < SHARED_FROM) {
    const children = [...node.children.slice(0, i), child, ...node.children.slice(i)];
    return counted(withField(node, 'children', children), waitingAmong(children));
  }
  const root = list?.root ?? balanced(node.children, 0, node.children.length);
  const cells = inserted(root, i, child, treapPriority());
  return counted(withLazy(node, 'children', new ChildList(cells)), waitingOf(cells));
}

/**
 * How many approvals wait under `children` (their `waitingInSubtree` added up); undefined
 * when one of them does not know (a node made elsewhere).
 */
export function waitingAmong(children: readonly TreeNode[]): number | undefined {
  let sum = 0;
  for (const child of children) {
    if (child.waitingInSubtree === undefined) return undefined;
    sum += child.waitingInSubtree;
  }
  return sum;
}

/** `node` (a copy made here, seen by no one yet) with its `waitingInSubtree`: its own and those under `children`. */
function counted(node: TreeNode, children: number | undefined): TreeNode {
  return Object.assign(node, { waitingInSubtree: children === undefined ? undefined : node.waitingApprovalCount + children });
}

/**
 * The children of `node` with an approval waiting under them (or not known to have none),
 * in order. A shared list is searched through the cells that hold some, never made into an
 * array: with one approval waiting among 10,000 tasks this costs a few cells, not 10,000.
 */
export function childrenWaiting(node: TreeNode): TreeNode[] {
  const list = listOf(node);
  if (list === undefined) return node.children.filter((child) => child.waitingInSubtree !== 0);
  const found: TreeNode[] = [];
  const visit = (cell: Cell | undefined): void => {
    if (cell === undefined || cell.waiting === 0) return;
    visit(cell.left); // a treap is as deep as the log of its size (it is balanced at random): recursion is safe
    if (cell.child.waitingInSubtree !== 0) found.push(cell.child);
    visit(cell.right);
  };
  visit(list.root);
  return found;
}

function sizeOf(cell: Cell | undefined): number {
  return cell?.size ?? 0;
}

function cellOf(child: TreeNode, left: Cell | undefined, right: Cell | undefined, priority: number): Cell {
  const waiting = child.waitingInSubtree === undefined ? undefined : sum(waitingOf(left), sum(waitingOf(right), child.waitingInSubtree));
  return { child, left, right, size: sizeOf(left) + sizeOf(right) + 1, priority, waiting };
}

function waitingOf(cell: Cell | undefined): number | undefined {
  return cell === undefined ? 0 : cell.waiting;
}

/** `a + b`, undefined when either is. */
function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a + b;
}

/**
 * The cells of `children[from..to)`, balanced. Each cell's priority is its subtree's size,
 * above every inserted cell's (those are below 1): still a treap, and as shallow as can be.
 */
function balanced(children: readonly TreeNode[], from: number, to: number): Cell | undefined {
  if (from >= to) return undefined;
  const mid = (from + to) >>> 1;
  return cellOf(children[mid]!, balanced(children, from, mid), balanced(children, mid + 1, to), to - from);
}

/** `cell` with the child at `i` replaced by `child`: new cells on the path only. */
function replaced(cell: Cell, i: number, child: TreeNode): Cell {
  const left = sizeOf(cell.left);
  if (i === left) return cellOf(child, cell.left, cell.right, cell.priority);
  if (i < left) return cellOf(cell.child, replaced(cell.left!, i, child), cell.right, cell.priority);
  return cellOf(cell.child, cell.left, replaced(cell.right!, i - left - 1, child), cell.priority);
}

/** `cell` with `child` inserted at `i`, as a cell of `priority`: new cells on the path only. */
function inserted(cell: Cell | undefined, i: number, child: TreeNode, priority: number): Cell {
  if (cell === undefined) return cellOf(child, undefined, undefined, priority);
  if (priority > cell.priority) {
    const [before, after] = split(cell, i);
    return cellOf(child, before, after, priority);
  }
  const left = sizeOf(cell.left);
  if (i <= left) return cellOf(cell.child, inserted(cell.left, i, child, priority), cell.right, cell.priority);
  return cellOf(cell.child, cell.left, inserted(cell.right, i - left - 1, child, priority), cell.priority);
}

/** The first `i` children of `cell` and the rest, as two treaps sharing what they can. */
function split(cell: Cell | undefined, i: number): [Cell | undefined, Cell | undefined] {
  if (cell === undefined) return [undefined, undefined];
  const left = sizeOf(cell.left);
  if (i <= left) {
    const [before, after] = split(cell.left, i);
    return [before, cellOf(cell.child, after, cell.right, cell.priority)];
  }
  const [before, after] = split(cell.right, i - left - 1);
  return [cellOf(cell.child, cell.left, before, cell.priority), after];
}

/** The children in order (a stack, not recursion). */
function inOrder(root: Cell | undefined): TreeNode[] {
  const children: TreeNode[] = [];
  const stack: Cell[] = [];
  for (let cell = root; cell !== undefined || stack.length > 0; ) {
    while (cell !== undefined) {
      stack.push(cell);
      cell = cell.left;
    }
    const next = stack.pop()!;
    children.push(next.child);
    cell = next.right;
  }
  return children;
}
