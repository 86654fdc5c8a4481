import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mcpOutputValidator } from '../../src/mcp/mcp-output-validator.js';
import { unusableRefs } from '../../src/validation/schema-refs.js';

const T = '#/$defs/t';
/** A value for `x`, in place of the arrays nested deep the schemas were attacked with: checked at all, it does not fit. */
const FLAT = { x: 'not an array' };
const underX = (t: object) => ({ type: 'object', $defs: { t }, properties: { x: { $ref: T } } });

/** `t`: an array of itself, recurring through both `items` and `contains` (22 levels exhausted the heap). */
const itemsAndContains = underX({ type: 'array', items: { $ref: T }, contains: { $ref: T } });
/** `t`: an `anyOf` of `b` variants, each recurring through `items` (b = 4, 13 levels: 7 s). */
const anyOfVariants = (b: number) => {
  const fails = Array.from({ length: b - 1 }, () => ({ allOf: [{ type: 'array', items: { $ref: T } }, { maxItems: 0 }] }));
  return underX({ anyOf: [...fails, { type: 'array', items: { $ref: T } }] });
};
const twoAllOfBranches = underX({ type: 'array', allOf: [{ items: { $ref: T } }, { items: { $ref: T } }] });
const taggedUnion = { type: 'object', oneOf: ['+', '-'].map((op) => ({ properties: { op: { const: op }, left: { $ref: '#' } } })) };
const twoPropertyPlaces = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } }, allOf: [{ properties: { kids: { items: { $ref: '#' } } } }] };

// ajv applies every subschema that applies: a recursive $ref reaching one part of a value by
// two paths checks it twice, its parts four times, and so on. A server's schema and 22 levels
// of `[[…]]` killed the process (heap), 13 held it for 7 s. Refused before ajv sees it.
describe('a schema from outside whose recursion can apply twice to the same part of a value', () => {
  it.each([
    ['items and contains', itemsAndContains, /at \/\$defs\/t\/items and \/\$defs\/t\/contains apply to the same part of a value/],
    ['anyOf variants (4)', anyOfVariants(4), /at \/\$defs\/t\/anyOf\/0\/allOf\/0\/items and \/\$defs\/t\/anyOf\/1\/allOf\/0\/items apply to the same part/],
    ['anyOf variants (2)', anyOfVariants(2), /at \/\$defs\/t\/anyOf\/0\/allOf\/0\/items and \/\$defs\/t\/anyOf\/1\/items apply/],
    ['two allOf branches', twoAllOfBranches, /at \/\$defs\/t\/allOf\/0\/items and \/\$defs\/t\/allOf\/1\/items apply/],
    ['a tagged union, both variants recurring into "left"', taggedUnion, /at \/oneOf\/0\/properties\/left and \/oneOf\/1\/properties\/left apply/],
    ['one property recurring in two places', twoPropertyPlaces, /at \/properties\/kids and \/allOf\/0\/properties\/kids apply/],
  ])('is refused, naming both places: %s', (_what, schema, where) => {
    const why = unusableRefs(schema);
    expect(why).toMatch(where);
    expect(why).toMatch(/each leads back to itself through a \$ref: checking would take twice as long at every level of nesting .*; let one subschema recur into each part/);
  });

  it('is refused when too intricate to count (hundreds of places each recurring into hundreds of properties), not walked for seconds', () => {
    const properties = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, { $ref: '#', properties: { z: { $ref: '#' } } }]));
    expect(unusableRefs({ type: 'object', properties })).toMatch(/^its recursion is too intricate to be checked for its cost here: more than 200,000 recursive subschemas/);
  });

  it('as an MCP output schema checks nothing: a result that does not fit is taken as it is, never checked', () => {
    for (const schema of [itemsAndContains, anyOfVariants(4), twoAllOfBranches]) {
      expect(mcpOutputValidator.getValidator(schema)(FLAT)).toMatchObject({ valid: true });
    }
  });
});

describe('a schema from outside whose recursion goes into each part of a value once', () => {
  const node = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name'] };
  const jsonValue = { anyOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array', items: { $ref: '#/$defs/v' } }, { type: 'object', additionalProperties: { $ref: '#/$defs/v' } }] };
  const accepted: Array<[string, object]> = [
    ['a tree of nodes', { type: 'object', $defs: { node }, properties: { root: { $ref: '#/$defs/node' } } }],
    ['a JSON value (anyOf an array of itself, an object of itself)', { type: 'object', $defs: { v: jsonValue }, properties: { value: { $ref: '#/$defs/v' } } }],
    ['a nullable linked list', { type: 'object', properties: { next: { anyOf: [{ type: 'null' }, { $ref: '#' }] } } }],
    ['then and else each recurring (one or the other applies)', { type: 'object', if: { properties: { k: { const: 'a' } } }, then: { properties: { kids: { items: { $ref: '#' } } } }, else: { properties: { kids: { items: { $ref: '#' } } } } }],
    ['a tuple and its additional items', { type: 'array', items: [{ $ref: '#' }, { $ref: '#' }], additionalItems: { $ref: '#' } }],
    ['properties and the additional properties of their own object', { type: 'object', properties: { a: { $ref: '#' } }, additionalProperties: { $ref: '#' } }],
    ['two different properties', { type: 'object', properties: { left: { $ref: '#' }, right: { $ref: '#' } } }],
    ['a recursive $def reached twice from a part that does not recur', { type: 'array', items: { $ref: '#/$defs/node' }, contains: { $ref: '#/$defs/node' }, $defs: { node } }],
    ['the JSON schema draft-07 meta-schema', JSON.parse(readFileSync(new URL('../../node_modules/ajv/dist/refs/json-schema-draft-07.json', import.meta.url), 'utf8')) as object],
  ];
  it.each(accepted)('passes: %s', (_what, schema) => {
    expect(unusableRefs(schema as Record<string, unknown>)).toBeUndefined();
  });

  it('is still checked as an MCP output schema', () => {
    const check = mcpOutputValidator.getValidator(accepted[0]![1]);
    expect(check({ root: { name: 'a', children: [{ name: 'b', children: [{}] }] } })).toMatchObject({ valid: false });
    expect(check({ root: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] } })).toMatchObject({ valid: true });
  });
});
