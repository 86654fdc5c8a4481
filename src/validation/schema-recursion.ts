/**
 * Whether checking a value against a recursive schema from outside can cost time exponential
 * in the value's depth: ajv applies every subschema that applies, so a `$ref` that recurs by
 * two paths into the same part of a value (`items` and `contains`, two `allOf` branches each
 * with `items`, two `anyOf` variants each with the same recursive property) checks that part
 * twice, its parts four times, and so on: 22 levels of `[[…]]` exhausted the heap. Called by
 * `unusableRefs` once no `$ref` loops in place (so the in-place subschemas form no cycle) and
 * the schema is small enough to compile (which bounds this walk).
 *
 * @module
 */

import { SeenSteps } from './recursion-steps.js';
import { appliedToValues, type Descent, type SchemaNode } from './schema-graph.js';
import { shown, type Schema } from './schema-walk.js';
import { recursiveParts } from './schema-sccs.js';

/**
 * Descents compared where several apply together, summed over the subschemas: some 0.1 s of
 * work. A tree, a JSON value, a meta-schema compare tens; only a schema recurring into
 * hundreds of properties from hundreds of places comes near.
 */
const MAX_DESCENTS_MET = 200_000;
const TOO_INTRICATE = `its recursion is too intricate to be checked for its cost here: more than ${MAX_DESCENTS_MET.toLocaleString('en')} recursive subschemas are compared where several apply together; recur through fewer properties, from fewer places`;

/**
 * Why checking against a schema (its `$ref`s `#` pointers, none looping in place) can take
 * time exponential in a value's depth, or `undefined`: two subschemas that apply to one
 * value, each leading back (through `$ref`s) to where they started, apply at the same part of
 * it (a property, an item). The schema path of both is named.
 *
 * Counted as it can happen, not as it must: two patterns are taken to match the same key, and
 * two branches of an `anyOf` to both apply; but `then` and `else` are one or the other, an
 * `items` and a `properties` never meet, nor do two different properties, nor a property and
 * the `additionalProperties` of its own object. A tree (`children: { items: { $ref: "#" } }`), a
 * JSON value (`anyOf` of an array of itself and an object of itself) recur once a part, and pass;
 * so does any recursion only `propertyNames` reaches, as a key has no parts.
 * `nodes` is `root`'s `schemaGraph`, read once for this and `repeatedChecks`.
 */
export function exponentialRecursion(root: Schema, nodes: ReadonlyMap<Schema, SchemaNode>): string | undefined {
  // A subschema only a key meets cannot recur: a string has no parts (`appliedToValues`).
  const applied = appliedToValues(root, nodes);
  const part = recursiveParts(applied, (node) => [...nodes.get(node)!.inPlace.flat(), ...nodes.get(node)!.descents.map((d) => d.target)]);
  // Only a subschema that leads back to where it started can recur: descents into another part never come back.
  const together = (a: Schema, b: Schema): boolean => part.has(a) && part.get(a) === part.get(b);
  const reached = new Map<Schema, readonly Descent[]>();
  const budget = { left: MAX_DESCENTS_MET };
  // In place of each subschema that recurs (its in-place ones first, without recursion: refs may chain a thousand deep).
  for (const start of applied) {
    if (!part.has(start) || reached.has(start)) continue;
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.at(-1)!;
      const waiting = nodes.get(node)!.inPlace.flat().filter((child) => together(node, child) && !reached.has(child) && !stack.includes(child));
      if (waiting.length > 0) {
        stack.push(...waiting);
        continue;
      }
      stack.pop();
      if (reached.has(node)) continue;
      const found = descentsOf(nodes.get(node)!, (child) => (together(node, child) ? reached.get(child) ?? [] : []), (target) => together(node, target), budget);
      if (typeof found === 'string') return found;
      reached.set(node, found);
    }
  }
  return undefined;
}

/**
 * The descents that apply in place of `node` and lead back into its part (`recurs`), from its
 * own and those of its in-place subschemas (`inner`); or, when two of them meet, why the
 * schema is refused. `budget` counts the descents looked at.
 */
function descentsOf(node: SchemaNode, inner: (child: Schema) => readonly Descent[], recurs: (target: Schema) => boolean, budget: { left: number }): readonly Descent[] | string {
  const groups: Array<readonly Descent[]> = node.descents.filter((d) => recurs(d.target)).map((d) => [d]);
  for (const entry of node.inPlace) groups.push(entry.length === 1 ? inner(entry[0]!) : [...new Set(entry.flatMap(inner))]);
  const applied = groups.filter((group) => group.length > 0);
  // Nothing to meet (a `$ref` alone, the most common): its target's descents, not copied.
  if (applied.length <= 1) return applied[0] ?? [];
  const all: Descent[] = [];
  const seen = new SeenSteps<Descent>();
  for (const group of applied) {
    budget.left -= group.length;
    if (budget.left < 0) return TOO_INTRICATE;
    // Against the other groups only: `then` and `else`, one group, never both apply.
    for (const descent of group) {
      const other = seen.meeting(descent.step);
      if (other !== undefined) return message([other, descent]);
    }
    for (const descent of group) seen.add(descent.step, descent);
    all.push(...group);
  }
  return all;
}

function message([a, b]: [Descent, Descent]): string {
  const where = (path: string): string => (path === '' ? 'the root' : shown(path));
  const same = a.path === b.path ? `${where(a.path)} (reached twice)` : `${where(a.path)} and ${where(b.path)}`;
  return `its recursive subschemas at ${same} apply to the same part of a value, and each leads back to itself through a $ref: checking would take twice as long at every level of nesting (a value 20 levels deep, a million times over); let one subschema recur into each part (items or contains, not both; a recursive property in one place, not repeated in anyOf or oneOf variants or in allOf branches)`;
}
