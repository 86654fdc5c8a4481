/**
 * The subschemas checking a value against a schema can apply, with what each applies in place
 * and one level down in the value: the one reading of a schema's structure for the checks of
 * its checking cost (`schema-recursion.ts`, `schema-repeats.ts`).
 *
 * @module
 */

import { dataSteps, type DataStep } from './recursion-steps.js';
import { IN_PLACE_LIST, IN_PLACE_MAP, resolve, subschemas, type Schema } from './schema-walk.js';

/** A subschema one level down in the value: where it stands in the schema, and where it applies in the value. */
export interface Descent {
  readonly path: string;
  readonly target: Schema;
  readonly step: DataStep;
}

/**
 * A subschema's place in the schema, what it applies in place (each entry applied together;
 * an entry's members, `then` and `else`, one or the other), one level down, and to each key
 * of an object (`propertyNames`). The keys are apart from the descents: a key, a string, has
 * no parts to recur into (so no recursion goes through one), but a chain of `$defs` named
 * there is applied to every key all the same.
 */
export interface SchemaNode {
  readonly path: string;
  readonly inPlace: Schema[][];
  readonly descents: Descent[];
  readonly keys: Schema[];
}

/**
 * Every subschema checking a value against `root` can apply (from the root, in place, through
 * `#` refs, one level down, to a key), with its edges. A `$ref` that is not `#` or a `#/…` pointer (a
 * tool author's ref by `$id`, left to ajv) leads nowhere here.
 */
export function schemaGraph(root: Schema): Map<Schema, SchemaNode> {
  const nodes = new Map<Schema, SchemaNode>();
  const stack: Array<[Schema, string]> = [[root, '']];
  while (stack.length > 0) {
    const [schema, path] = stack.pop()!;
    if (nodes.has(schema)) continue;
    const inPlace: Schema[][] = subschemas(schema, ['not', 'if'], IN_PLACE_LIST, IN_PLACE_MAP).map(([child, key]) => {
      stack.push([child, `${path}/${key}`]);
      return [child];
    });
    const either = subschemas(schema, ['then', 'else'], [], []);
    for (const [child, key] of either) stack.push([child, `${path}/${key}`]);
    if (either.length > 0) inPlace.push(either.map(([child]) => child));
    const ref = schema['$ref'];
    const target = typeof ref === 'string' && (ref === '#' || ref.startsWith('#/')) ? resolve(root, ref) : undefined;
    if (target !== undefined) {
      inPlace.push([target]);
      stack.push([target, ref === '#' ? '' : (ref as string).slice(1)]);
    }
    const descents = dataSteps(schema).map(([child, key, step]) => ({ path: `${path}/${key}`, target: child, step }));
    for (const d of descents) stack.push([d.target, d.path]);
    const keys = subschemas(schema, ['propertyNames'], [], []).map(([child, key]) => {
      stack.push([child, `${path}/${key}`]);
      return child;
    });
    nodes.set(schema, { path, inPlace, descents, keys });
  }
  return nodes;
}

/**
 * The subschemas of `nodes` (`root`'s `schemaGraph`) applied to the value or its parts, not
 * only to keys (`propertyNames`): a key is a string, and the validator applies an item's or a
 * property's subschema only to an array or an object, so below a key nothing goes a level
 * down. A recursion there never unfolds; what a key meets in place still counts.
 */
export function appliedToValues(root: Schema, nodes: ReadonlyMap<Schema, SchemaNode>): Set<Schema> {
  const applied = new Set<Schema>([root]);
  const stack = [root];
  while (stack.length > 0) {
    const node = nodes.get(stack.pop()!)!;
    for (const next of [...node.inPlace.flat(), ...node.descents.map((d) => d.target)]) {
      if (!applied.has(next)) {
        applied.add(next);
        stack.push(next);
      }
    }
  }
  return applied;
}
