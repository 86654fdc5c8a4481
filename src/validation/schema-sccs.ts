/**
 * The recursive parts of a schema: its subschemas grouped so that each one in a group leads
 * (through `$ref`s, in place or into the value) to every other, and back to itself. For
 * `schema-recursion.ts`.
 *
 * @module
 */

import type { Schema } from './schema-walk.js';

/**
 * Each subschema of `nodes` that leads back to itself, with the number of its part (the
 * strongly connected components of `edges`, found by Tarjan's algorithm without recursion, as
 * a schema's refs may chain thousands deep); a subschema on no cycle is not in the map.
 */
export function recursiveParts(nodes: Iterable<Schema>, edges: (node: Schema) => readonly Schema[]): Map<Schema, number> {
  const index = new Map<Schema, number>();
  const low = new Map<Schema, number>();
  const onStack = new Set<Schema>();
  const stack: Schema[] = [];
  const parts = new Map<Schema, number>();
  let next = 0;
  let partCount = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: Array<{ readonly node: Schema; readonly out: readonly Schema[]; at: number }> = [];
    const enter = (node: Schema): void => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, out: edges(node), at: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const top = work.at(-1)!;
      if (top.at < top.out.length) {
        const child = top.out[top.at++]!;
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const members: Schema[] = [];
      let member: Schema;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== top.node);
      // One subschema alone is recursive only when it leads to itself directly (`items: <itself>`).
      if (members.length > 1 || top.out.includes(top.node)) {
        for (const m of members) parts.set(m, partCount);
        partCount += 1;
      }
    }
  }
  return parts;
}
