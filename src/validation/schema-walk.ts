/**
 * The subschemas of a JSON schema, by keyword, and what a `#` pointer names in it: shared by the
 * checks of a schema from outside (`schema-refs.ts`, `schema-cost.ts`).
 *
 * @module
 */

/**
 * Keywords whose schema applies to the instance itself (not to a part of it): a `$ref` reached
 * through them alone, from its own target, checks the same value again, for ever.
 */
export const IN_PLACE_ONE = ['not', 'if', 'then', 'else'];
export const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'];
export const IN_PLACE_MAP = ['dependentSchemas', 'dependencies'];
/** Keywords whose schemas apply to parts of the instance (a property, an item, a key), or to nothing ($defs). */
export const NESTED_ONE = ['additionalProperties', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'items'];
export const NESTED_LIST = ['items', 'prefixItems'];
export const NESTED_MAP = ['properties', 'patternProperties', '$defs', 'definitions'];
/** Keywords whose values are data (a value to compare, a default, an example), not schemas. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples']);

/** A JSON schema object, as read from outside. */
export type Schema = Readonly<Record<string, unknown>>;

/** A schema's subschemas under the given keywords, with their JSON-pointer keys (`properties/city`). */
export function subschemas(schema: Schema, one: readonly string[], list: readonly string[], map: readonly string[]): Array<[Schema, string]> {
  const found: Array<[Schema, string]> = [];
  for (const key of one) if (isSchema(schema[key])) found.push([schema[key], key]);
  for (const key of list) {
    const value = schema[key];
    if (Array.isArray(value)) value.forEach((child, i) => isSchema(child) && found.push([child, `${key}/${i}`]));
  }
  for (const key of map) {
    const value = schema[key];
    if (!isSchema(value)) continue;
    for (const [name, child] of Object.entries(value)) if (isSchema(child)) found.push([child, `${key}/${escape(name)}`]);
  }
  return found;
}

/** What a `#` or `#/…` ref points at in the schema, as ajv reads it (percent-decoded, `~1` and `~0` undone). */
export function resolve(root: Schema, ref: string): Schema | undefined {
  let at: unknown = root;
  const keys = refKeys(ref);
  if (keys === undefined) return undefined;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return isSchema(at) ? at : undefined;
}

/**
 * The data keyword (`default`, `examples`, `const`, `enum`) a `#/…` ref points into, or
 * `undefined`: `#/default`, `#/properties/p/examples/0`, but not `#/properties/default` (a
 * property's name). The validator follows a pointer under any key and reads what it finds
 * as a schema; the walks of a schema's subschemas (its patterns, say) leave data out.
 */
export function dataKeywordOf(root: Schema, ref: string): string | undefined {
  let at: unknown = root;
  // Whether the key at hand names a keyword (not a property's or a $def's name, nor an index).
  let keyword = true;
  for (const key of refKeys(ref) ?? []) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    if (keyword && !Array.isArray(at) && DATA_KEYWORDS.has(key)) return key;
    const names: boolean = keyword && !Array.isArray(at) && NAME_MAPS.has(key);
    at = (at as Record<string, unknown>)[key];
    keyword = !names || Array.isArray(at);
  }
  return undefined;
}

/** Keywords whose values map names (a property's, a $def's) to schemas: a name there is no keyword (a property named `default` holds a schema). */
export const NAME_MAPS: ReadonlySet<string> = new Set([...IN_PLACE_MAP, ...NESTED_MAP]);

/** The keys of a `#` or `#/…` ref, as ajv reads them (percent-decoded, `~1` and `~0` undone); `undefined` when one cannot be decoded. */
function refKeys(ref: string): string[] | undefined {
  try {
    return ref === '#' ? [] : ref.slice(2).split('/').map((key) => decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    return undefined;
  }
}

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Text from outside, cut for an error message. */
export function shown(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
