import { _, str, type CodeKeywordDefinition, type KeywordCxt } from 'ajv';

/**
 * The indexes of the first two equal items of `items` (earlier first), or `undefined` when
 * all differ. Equality is JSON schema's: the same type and value, a number's mathematical
 * value (`1` is `1.0`), arrays item by item, objects key by key whatever the keys' order.
 * A value JSON cannot hold (a function, a class instance, a date) equals only itself.
 *
 * Linear in the size of `items`: each item is written once as a canonical key, and the keys
 * are looked up in a `Map`, where ajv's own `uniqueItems` compares every pair.
 *
 * @example
 * ```ts
 * firstDuplicate([{ a: 1, b: 2 }, 'x', { b: 2, a: 1 }]); // [0, 2]
 * firstDuplicate([1, '1', [1]]); // undefined
 * ```
 */
export function firstDuplicate(items: readonly unknown[]): readonly [number, number] | undefined {
  const seen = new Map<string, number>();
  const identities = new Map<unknown, string>();
  for (let index = 0; index < items.length; index++) {
    const key = canonicalKey(items[index], identities);
    const earlier = seen.get(key);
    if (earlier !== undefined) return [earlier, index];
    seen.set(key, index);
  }
  return undefined;
}

/**
 * One string per JSON value, equal for equal values: strings and keys quoted (so `"1"` is not
 * `1`), an object's keys sorted. A value JSON cannot hold gets a key of its own (`#<n>`).
 */
function canonicalKey(value: unknown, identities: Map<unknown, string>): string {
  if (value === null || typeof value === 'boolean') return String(value);
  // `String` writes -0 as `0` and 1.0 as `1`: JSON schema's equality of numbers.
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalKey(item, identities)).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalKey(value[key], identities)}`).join(',')}}`;
  }
  let own = identities.get(value);
  if (own === undefined) identities.set(value, (own = `#${identities.size}`));
  return own;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * JSON schema's `uniqueItems` in linear time, in place of ajv's, which compares every pair
 * of items (n²/2 deep comparisons, when the items may be objects or arrays): an MCP server's
 * output schema with `uniqueItems: true` and a result of 20,000 distinct objects held the
 * event loop 9 s. Same keyword, same error (`must NOT have duplicate items (items ## 0 and 2
 * are identical)`, params `{ i, j }`), so the message formatters read it as before; `$data`
 * is not supported (no schema of ours or from outside is compiled with `$data`).
 */
export const LINEAR_UNIQUE_ITEMS: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  error: {
    message: ({ params }) => str`must NOT have duplicate items (items ## ${params['j']} and ${params['i']} are identical)`,
    params: ({ params }) => _`{i: ${params['i']}, j: ${params['j']}}`,
  },
  code(cxt: KeywordCxt) {
    if (cxt.schema !== true) return;
    const { gen, data } = cxt;
    const find = gen.scopeValue('func', { ref: firstDuplicate });
    const pair = gen.const('pair', _`${find}(${data})`);
    // As ajv's: `i` the later item, `j` the earlier one.
    cxt.setParams({ i: _`${pair}[1]`, j: _`${pair}[0]` });
    cxt.fail(_`${pair} !== undefined`);
  },
};
