/**
 * A sequence that says where each of its elements is, however they were inserted: the
 * index's picture of a node's children. A task may arrive before siblings that come before
 * it (a multitask's #9,999 seen before #1): kept as plain positions, every such arrival
 * shifted the positions of all the children after it (a multitask whose tasks arrived last
 * first folded in quadratic time). Here the elements are a treap with parent pointers, so
 * an insertion anywhere, and the position of an element, cost O(log n) (expected).
 *
 * Mutable: an index changes along with the newest tree of its line only (see `tree-index.ts`).
 *
 * @module
 */

/** One element of a {@link RankTree}: the handle to ask its position with ({@link rankOf}). */
export class RankNode<T> {
  left: RankNode<T> | undefined;
  right: RankNode<T> | undefined;
  parent: RankNode<T> | undefined;
  /** The elements in the subtree rooted here, this one included. */
  size = 1;
  readonly priority = treapPriority();

  constructor(readonly value: T) {}
}

/** A sequence of elements, each insertion at any position and each position asked in O(log n). */
export class RankTree<T> {
  #root: RankNode<T> | undefined;

  /** How many elements it holds. */
  get size(): number {
    return this.#root?.size ?? 0;
  }

  /** The element at `rank` (from 0), or `undefined` past the end. */
  at(rank: number): T | undefined {
    let node = this.#root;
    let rest = rank;
    while (node !== undefined) {
      const left = sizeOf(node.left);
      if (rest === left) return node.value;
      if (rest < left) node = node.left;
      else {
        rest -= left + 1;
        node = node.right;
      }
    }
    return undefined;
  }

  /**
   * How many elements come before the first for which `later` holds; `later` must hold for
   * every element after that one too (a sorted sequence and a bound: a binary search).
   */
  countBefore(later: (value: T) => boolean): number {
    let node = this.#root;
    let count = 0;
    while (node !== undefined) {
      if (later(node.value)) node = node.left;
      else {
        count += sizeOf(node.left) + 1;
        node = node.right;
      }
    }
    return count;
  }

  /** Inserts `value` so that it is at `rank` (`size`: last); returns its handle. */
  insertAt(rank: number, value: T): RankNode<T> {
    const added = new RankNode(value);
    let node = this.#root;
    if (node === undefined) {
      this.#root = added;
      return added;
    }
    let rest = rank;
    // down to a free leaf place, counting the element in every subtree on the way
    for (;;) {
      node.size += 1;
      const left = sizeOf(node.left);
      if (rest <= left) {
        if (node.left === undefined) {
          node.left = added;
          break;
        }
        node = node.left;
      } else {
        rest -= left + 1;
        if (node.right === undefined) {
          node.right = added;
          break;
        }
        node = node.right;
      }
    }
    added.parent = node;
    // up while it outranks its parent: the heap order of priorities keeps the tree shallow
    while (added.parent !== undefined && added.parent.priority < added.priority) this.#rotateUp(added);
    return added;
  }

  /** Lifts `node` above its parent, keeping the order of the sequence. */
  #rotateUp(node: RankNode<T>): void {
    const parent = node.parent!;
    const above = parent.parent;
    if (parent.left === node) {
      parent.left = node.right;
      if (node.right !== undefined) node.right.parent = parent;
      node.right = parent;
    } else {
      parent.right = node.left;
      if (node.left !== undefined) node.left.parent = parent;
      node.left = parent;
    }
    parent.parent = node;
    node.parent = above;
    if (above === undefined) this.#root = node;
    else if (above.left === parent) above.left = node;
    else above.right = node;
    parent.size = sizeOf(parent.left) + sizeOf(parent.right) + 1;
    node.size = sizeOf(node.left) + sizeOf(node.right) + 1;
  }
}

/** The position (from 0) of the element of `node` in its sequence. */
export function rankOf<T>(node: RankNode<T>): number {
  let rank = sizeOf(node.left);
  for (let below = node, above = node.parent; above !== undefined; below = above, above = above.parent) {
    if (above.right === below) rank += sizeOf(above.left) + 1;
  }
  return rank;
}

function sizeOf<T>(node: RankNode<T> | undefined): number {
  return node?.size ?? 0;
}

let seed = 0x9e3779b9;

/**
 * A treap node's priority, in [0, 1): pseudo-random, from a fixed seed (xorshift), so that
 * runs are repeatable. Only the trees' shapes depend on it, never what they hold.
 */
export function treapPriority(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}
