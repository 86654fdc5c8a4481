/**
 * A node's children without a copy of the whole list per item. The reducer is pure: every
 * state keeps its own `children` arrays, unchanged, so an item for one of 10,000 tasks copied
 * its parent's list of 10,000 (a multitask of 10,000 folded in quadratic time). Here a state's
 * `children` is an array made the first time it is read, and then kept; until then it is a
 * version of one list shared along the line of states (Baker's trick: the newest version
 * holds the array the reducer changes in place, each older one the one cell it had
 * otherwise). An item costs O(1) per node of its path; a reader pays for the arrays it reads
 * (one copy per node per read of a newer state, as a page drawing each frame does). A node
 * with few children keeps a plain array, copied per change: cheaper at that size.
 *
 * @module
 */
import type { TreeNode } from './tree-state.js';

/** One version of a node's child list. */
class ChildList {
  /** The newest version's cells, changed in place by the next version; undefined for an older one. */
  #cells: TreeNode[] | undefined;
  /** The list as read, made once; an older version that has it needs nothing newer. */
  #array: readonly TreeNode[] | undefined;
  /** An older unread version: the newer one it differs from, where, and what it had there (`undefined` at `at`: it ended there). */
  #next: ChildList | undefined;
  #at = 0;
  #had: TreeNode | undefined;

  constructor(cells: TreeNode[]) {
    this.#cells = cells;
  }

  get length(): number {
    return this.#cells?.length ?? this.read().length;
  }

  at(i: number): TreeNode | undefined {
    return this.#cells !== undefined ? this.#cells[i] : this.read()[i];
  }

  /** This list with `child` at `i` (`i === length`: after the others). */
  with(i: number, child: TreeNode): ChildList {
    const cells = this.#cells;
    // an older version starts a line of its own (an old state reduced again)
    if (cells === undefined) return new ChildList(this.read().slice()).with(i, child);
    const newer = new ChildList(cells);
    this.#cells = undefined;
    // unread, this version keeps only how it differs from the newer one
    if (this.#array === undefined) {
      this.#next = newer;
      this.#at = i;
      this.#had = cells[i];
    }
    if (i === cells.length) cells.push(child);
    else cells[i] = child;
    return newer;
  }

  /** The list as an array, made on first read and then the same array each time. */
  read(): readonly TreeNode[] {
    if (this.#array !== undefined) return this.#array;
    // the versions from this one to the nearest that has an array (or is the newest)
    const chain: ChildList[] = [];
    let base: ChildList = this;
    while (base.#array === undefined && base.#cells === undefined) {
      chain.push(base);
      base = base.#next!;
    }
    const array = (base.#array ?? base.#cells!).slice();
    // undo the newer versions' changes, the newest first
    for (let k = chain.length - 1; k >= 0; k -= 1) {
      const older = chain[k]!;
      if (older.#had === undefined) array.length = older.#at;
      else array[older.#at] = older.#had;
    }
    this.#array = array;
    this.#next = this.#had = undefined; // read: it needs no newer version now
    return array;
  }
}

/** The list behind each node the reducer made with one; other nodes have a plain `children` array. */
const LISTS = new WeakMap<TreeNode, ChildList>();

/** Below this many children a plain copy costs less than a shared list: the few children most nodes have. */
const SHARED_FROM = 64;

/** How many children `node` has. */
export function childCount(node: TreeNode): number {
  return LISTS.get(node)?.length ?? node.children.length;
}

/** The child of `node` at `i`. */
export function childAt(node: TreeNode, i: number): TreeNode | undefined {
  const list = LISTS.get(node);
  return list === undefined ? node.children[i] : list.at(i);
}

/** A new `node` with `child` at `i` (`i === childCount(node)`: after the others); `node` keeps its own. */
export function withChildAt(node: TreeNode, i: number, child: TreeNode): TreeNode {
  const list = LISTS.get(node);
  if (list === undefined && node.children.length < SHARED_FROM) {
    const children = node.children.slice();
    children[i] = child;
    return { ...node, children };
  }
  return withList(node, (list ?? new ChildList(node.children.slice())).with(i, child));
}

/** A node of `fields` (any `children` among them ignored) whose `children` is `list`. */
function withList(fields: TreeNode, list: ChildList): TreeNode {
  const node = fieldsOf(fields);
  // enumerable, so a spread, JSON, structuredClone and equality see `children` as on any node
  Object.defineProperty(node, 'children', { enumerable: true, configurable: true, get: () => list.read() });
  LISTS.set(node, list);
  return node;
}

/**
 * `change(node)` without reading `node.children` unless `change` does: it gets a copy whose
 * `children` is not enumerable, so a spread leaves it out (no array is made), while a read,
 * as a `task-end` settling every child does, still gets the list. A result without
 * `children` of its own gets the node's list back.
 */
export function changeKeepingChildren(node: TreeNode, change: (node: TreeNode) => TreeNode): TreeNode {
  const list = LISTS.get(node);
  if (list === undefined) return change(node);
  const shell = fieldsOf(node);
  Object.defineProperty(shell, 'children', { enumerable: false, configurable: true, get: () => list.read() });
  const changed = change(shell);
  if (changed === shell) return node;
  return Object.hasOwn(changed, 'children') ? changed : withList(changed, list);
}

/** The own fields of `node` but `children`, without reading it: a node until its caller gives it children. */
function fieldsOf(node: TreeNode): TreeNode {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(node)) if (key !== 'children') fields[key] = (node as unknown as Record<string, unknown>)[key];
  return fields as unknown as TreeNode;
}
