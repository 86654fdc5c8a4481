/**
 * A node's array fields made when first read: `children` (see `child-list.ts`) and `tools`
 * (see `tool-list.ts`). A node with many children or tool calls keeps them in a shared
 * persistent structure, and its field is an enumerable getter that makes the array on first
 * read and gives that same array after: a spread, JSON, structuredClone and equality see a
 * plain field. The reducer must not read such a field (a read copies the whole list), so
 * every copy of a node made here carries the others' sources unread.
 *
 * @module
 */
import type { TreeNode } from './tree-state.js';

/** What makes a node's array field on first read, then gives that same array each time. */
export interface LazyArray<T> {
  read(): readonly T[];
}

/** The fields a node may make on first read. */
export type LazyKey = 'children' | 'tools';

type Sources = Partial<Record<LazyKey, LazyArray<unknown>>>;

/** The sources behind each node made here (keyed by node, so an instrumented getter still finds its source). */
const SOURCES = new WeakMap<object, Sources>();

/** The source behind `node[key]` when that field is made on first read; undefined for a plain field. */
export function lazySource(node: TreeNode, key: LazyKey): LazyArray<unknown> | undefined {
  return SOURCES.get(node)?.[key];
}

/** A copy of `node` whose `key` is made from `source` on first read; its other fields as they are (a lazy one unread). */
export function withLazy(node: TreeNode, key: LazyKey, source: LazyArray<unknown>): TreeNode {
  return copyOf(node, { ...SOURCES.get(node), [key]: source }, true, undefined);
}

/** A copy of `node` with `key` set to the plain `value`; its other lazy fields carried unread. */
export function withField<K extends LazyKey>(node: TreeNode, key: K, value: TreeNode[K]): TreeNode {
  const sources = SOURCES.get(node);
  if (sources === undefined) return { ...node, [key]: value };
  const { [key]: _replaced, ...kept } = sources;
  return copyOf(node, kept, true, { key, value });
}

/**
 * `change(node)` without reading the lazy fields of `node` unless `change` does: it gets a
 * copy whose lazy fields are not enumerable, so a spread leaves them out (no array is made),
 * while a read (as a `task-end` settling every child does) still gets the array. A field the
 * result lacks is given back as `node` had it.
 */
export function changeKeepingLazy(node: TreeNode, change: (fields: TreeNode) => TreeNode): TreeNode {
  const sources = SOURCES.get(node);
  if (sources === undefined) return change(node);
  const shell = copyOf(node, sources, false, undefined);
  const changed = change(shell);
  if (changed === shell) return node;
  const kept: Sources = { ...SOURCES.get(changed) };
  let missing = false;
  for (const key of Object.keys(sources) as LazyKey[]) {
    if (Object.hasOwn(changed, key)) continue;
    kept[key] = sources[key];
    missing = true;
  }
  return missing ? copyOf(changed, kept, true, undefined) : changed;
}

/**
 * The getter of each lazy field, one for all nodes (no closure per copy): it finds the
 * field's source by the node it is read on, so a copy carries it by being registered.
 */
const GETTERS: Record<LazyKey, (this: object) => readonly unknown[] | undefined> = {
  children() {
    return SOURCES.get(this)?.children?.read();
  },
  tools() {
    return SOURCES.get(this)?.tools?.read();
  },
};

/**
 * A copy of `node`: each field in `sources` a getter of its source (enumerable or not), in
 * its place; `plain` set to its value; the other own enumerable fields copied.
 */
function copyOf(node: TreeNode, sources: Sources, enumerable: boolean, plain: { key: LazyKey; value: unknown } | undefined): TreeNode {
  const copy: Record<string, unknown> = {};
  const own = node as unknown as Record<string, unknown>;
  for (const key of Object.keys(node)) {
    if (key in GETTERS && (sources[key as LazyKey] !== undefined || key === plain?.key)) continue; // set below
    copy[key] = own[key];
  }
  for (const key of Object.keys(sources) as LazyKey[]) Object.defineProperty(copy, key, { enumerable, configurable: true, get: GETTERS[key] });
  if (plain !== undefined) copy[plain.key] = plain.value;
  SOURCES.set(copy, sources);
  return copy as unknown as TreeNode;
}
