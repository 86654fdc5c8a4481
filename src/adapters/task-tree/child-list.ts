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
    return withField(node, 'children', children);
  }
  const root = list?.root ?? balanced(node.children, 0, node.children.length);
  return withLazy(node, 'children', new ChildList(i === sizeOf(root) ? inserted(root, i, child, treapPriority()) : replaced(root!, i, child)));
}

/** A new `node` with `child` inserted at `i`, before the child there; `node` keeps its own. */
export function withChildBefore(node: TreeNode, i: number, child: TreeNode): TreeNode {
  const list = listOf(node);
  if (list === undefined && node.children.length < SHARED_FROM) {
    return withField(node, 'children', [...node.children.slice(0, i), child, ...node.children.slice(i)]);
  }
  const root = list?.root ?? balanced(node.children, 0, node.children.length);
  return withLazy(node, 'children', new ChildList(inserted(root, i, child, treapPriority())));
}

function sizeOf(cell: Cell | undefined): number {
  return cell?.size ?? 0;
}

function cellOf(child: TreeNode, left: Cell | undefined, right: Cell | undefined, priority: number): Cell {
  return { child, left, right, size: sizeOf(left) + sizeOf(right) + 1, priority };
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
