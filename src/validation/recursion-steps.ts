/**
 * Where a subschema applies in the data, one level down from the value its parent checks: an
 * item (a range of indexes) or a property (a name, a pattern, the keys left over). Used by
 * `schema-recursion.ts` to tell whether two subschemas can check the same part of a value.
 *
 * @module
 */

import { pointerParts } from './json-pointer.js';
import { isSchema, subschemas, type Schema } from './schema-walk.js';

/** Items from index `from` up to (not including) `to`: `items` (all), a tuple's `items[i]`, `additionalItems` (after the tuple). */
export interface ItemStep {
  readonly kind: 'item';
  readonly from: number;
  readonly to: number;
}

/**
 * Properties: one `name` (`properties`), the keys a `pattern` may match (`patternProperties`:
 * any key, as far as this check knows), the keys an object's `properties` and
 * `patternProperties` leave over (`additionalProperties`: `except`), or any key (`unevaluatedProperties`).
 */
export interface PropertyStep {
  readonly kind: 'property';
  readonly name?: string;
  readonly pattern?: string;
  readonly except?: { readonly names: ReadonlySet<string>; readonly patterns: ReadonlySet<string> };
}

/** One level down into the value: an item or a property. */
export type DataStep = ItemStep | PropertyStep;

const ALL_ITEMS: ItemStep = { kind: 'item', from: 0, to: Infinity };
const ANY_PROPERTY: PropertyStep = { kind: 'property' };

/**
 * The subschemas of `schema` that apply one level down in the value, each with its key
 * (`items/0`, `properties/name`) and where it applies. `propertyNames` is not among them: it
 * checks a key, a string, which has no parts to recur into; nor are `$defs`, which apply nowhere.
 * `prefixItems`, `unevaluatedItems` and `unevaluatedProperties` are taken as applying where
 * they could (the validator's draft ignores them; a later one would not).
 */
export function dataSteps(schema: Schema): Array<[Schema, string, DataStep]> {
  const tuple = schema['items'];
  const after = Array.isArray(tuple) ? tuple.length : 0;
  const properties = new Set(isSchema(schema['properties']) ? Object.keys(schema['properties']) : []);
  const patterns = new Set(isSchema(schema['patternProperties']) ? Object.keys(schema['patternProperties']) : []);
  const children = subschemas(schema, ['items', 'additionalItems', 'contains', 'unevaluatedItems', 'additionalProperties', 'unevaluatedProperties'], ['items', 'prefixItems'], ['properties', 'patternProperties']);
  return children.map(([child, key]) => {
    const [keyword, name = ''] = pointerParts(`/${key}`);
    return [child, key, stepOf(keyword!, name, after, { names: properties, patterns })];
  });
}

/** Where the subschema under `keyword` (and `name`: an index, a property, a pattern) applies. */
function stepOf(keyword: string, name: string, after: number, leftOver: PropertyStep['except']): DataStep {
  if (keyword === 'items' || keyword === 'prefixItems') return name === '' ? ALL_ITEMS : { kind: 'item', from: Number(name), to: Number(name) + 1 };
  if (keyword === 'additionalItems') return { kind: 'item', from: after, to: Infinity };
  if (keyword === 'contains' || keyword === 'unevaluatedItems') return ALL_ITEMS;
  if (keyword === 'properties') return { kind: 'property', name };
  if (keyword === 'patternProperties') return { kind: 'property', pattern: name };
  return keyword === 'additionalProperties' ? { kind: 'property', except: leftOver } : ANY_PROPERTY;
}

/**
 * Whether some part of a value can be where both steps apply: item ranges that meet; the same
 * property name; a name and the leftover keys of an object whose `properties` lack it; and,
 * as no regex is run here, a pattern and any key but the leftover keys of its own object.
 */
export function overlap(a: DataStep, b: DataStep): boolean {
  if (a.kind === 'item' || b.kind === 'item') return a.kind === 'item' && b.kind === 'item' && a.from < b.to && b.from < a.to;
  if (a.name !== undefined && b.name !== undefined) return a.name === b.name;
  return leftOverMay(a, b) && leftOverMay(b, a);
}

/** Whether the keys `a` applies to, when `a` is an object's leftover keys, may include a key `b` applies to. */
function leftOverMay(a: PropertyStep, b: PropertyStep): boolean {
  if (a.except === undefined) return true;
  if (b.name !== undefined) return !a.except.names.has(b.name);
  if (b.pattern !== undefined) return !a.except.patterns.has(b.pattern);
  return true;
}

/**
 * Steps seen so far, each with its owner, and the first that meets a new one: names and
 * single indexes looked up, not compared one by one, as a schema may recur into a thousand
 * properties and each place it is applied in looks at them all again.
 */
export class SeenSteps<T> {
  private readonly names = new Map<string, T>();
  private readonly indexes = new Map<number, T>();
  private readonly others: Array<[DataStep, T]> = [];

  /** The owner of a step seen that meets `step` (see {@link overlap}), or `undefined`. */
  meeting(step: DataStep): T | undefined {
    const other = this.others.find(([seen]) => overlap(seen, step))?.[1];
    if (other !== undefined) return other;
    if (step.kind === 'item') {
      if (step.to === step.from + 1) return this.indexes.get(step.from);
      return [...this.indexes].find(([index]) => index >= step.from && index < step.to)?.[1];
    }
    if (step.name !== undefined) return this.names.get(step.name);
    return [...this.names].find(([name]) => overlap(step, { kind: 'property', name }))?.[1];
  }

  /** Records `step`, owned by `owner`, for the next {@link SeenSteps.meeting}. */
  add(step: DataStep, owner: T): void {
    if (step.kind === 'item' && step.to === step.from + 1) this.indexes.set(step.from, owner);
    else if (step.kind === 'property' && step.name !== undefined) this.names.set(step.name, owner);
    else this.others.push([step, owner]);
  }
}
