import type { JsonObject } from '../../../src/events/json.js';

// Whether a schema was compiled (or walked) again, seen without timing: a compile reads
// keywords the schema lacks (`$ref`, `$id`, ...), reading it as JSON text reads only its own
// keys (and `toJSON`). Shared by tool-schema-verdicts.test.ts (the checks' verdict by text) and
// validator-by-schema-text.test.ts (the compiled validator by text).

/** A property schema that records the names read from it that it does not have. */
export function watched(schema: JsonObject): { readonly schema: JsonObject; readonly foreignReads: Set<string> } {
  const foreignReads = new Set<string>();
  const note = (key: string | symbol): void => {
    if (typeof key === 'string' && key !== 'toJSON' && !Object.hasOwn(schema, key)) foreignReads.add(key);
  };
  const proxy = new Proxy(schema, {
    get: (target, key, receiver) => (note(key), Reflect.get(target, key, receiver)),
    has: (target, key) => (note(key), Reflect.has(target, key)),
  });
  return { schema: proxy, foreignReads };
}

/**
 * A tool schema unlike any other test's (its `tag` property), so no other test's check or
 * compile answered for it first, with `inner` as one property; `required` names one property.
 */
export function schemaWith(tag: string, inner: JsonObject, required: string = tag): JsonObject {
  return { type: 'object', properties: { [tag]: { type: 'string' }, inner }, required: [required] };
}
