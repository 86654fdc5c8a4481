import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/tools/define-tool.js';
import { checkingCost, unusableRefs } from '../../src/validation/schema-refs.js';
import { compileSchema } from '../../src/validation/validator.js';

/**
 * A name: a string, or a list of names (a path), recurring through both `items` and
 * `contains`. Applied to a value, each level would be checked twice over; applied to a key,
 * a string, it never goes a level down.
 */
const NAME = { anyOf: [{ type: 'string', maxLength: 64 }, { type: 'array', items: { $ref: '#/$defs/name' }, contains: { $ref: '#/$defs/name' } }] };
const KEYS_ONLY = { type: 'object', $defs: { name: NAME }, propertyNames: { $ref: '#/$defs/name' }, additionalProperties: { type: 'number' } };

const DOUBLING = /^its recursive subschemas at \/\$defs\/name\/anyOf\/1\/items and \/\$defs\/name\/anyOf\/1\/contains apply to the same part of a value/;

/** `links` `$defs`, each an array whose `items` and `contains` name the next, the last a string, named from `propertyNames`. */
const keyChain = (links: number): Record<string, unknown> => {
  const $defs: Record<string, object> = { [`l${links}`]: { type: 'string' } };
  for (let i = 0; i < links; i++) $defs[`l${i}`] = { type: 'array', items: { $ref: `#/$defs/l${i + 1}` }, contains: { $ref: `#/$defs/l${i + 1}` } };
  return { type: 'object', $defs, propertyNames: { $ref: '#/$defs/l0' } };
};

// A recursion reached only through `propertyNames` met the check of recursion that doubles
// at every level, and was refused, though the validator checks a key, a string, against it:
// `items`, `contains` and `properties` apply only to arrays and objects, so it never unfolds.
describe('a recursive $def reached only through propertyNames', () => {
  it('is taken from outside and from defineTool, and keys are checked against it', () => {
    expect(unusableRefs(KEYS_ONLY)).toBeUndefined();
    expect(checkingCost(KEYS_ONLY)).toBeUndefined();
    expect(() => defineTool({ name: 'scores', description: 'd', input: KEYS_ONLY, execute: () => 'ran' })).not.toThrow();
    const { validate } = compileSchema(KEYS_ONLY);
    expect(validate({ alice: 1, bob: 2 })).toBe(true);
    expect(validate({ ['x'.repeat(65)]: 1 })).toBe(false);
  });

  it('is refused still when it is also applied to a value (a property)', () => {
    const schema = { ...KEYS_ONLY, properties: { path: { $ref: '#/$defs/name' } } };
    expect(unusableRefs(schema)).toMatch(DOUBLING);
    expect(checkingCost(schema)).toMatch(DOUBLING);
  });

  it('is refused still when its $ref loops in place: that never ends, on a key as on any value', () => {
    const schema = { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, propertyNames: { $ref: '#/$defs/a' } };
    expect(unusableRefs(schema)).toMatch(/^its \$ref "#\/\$defs\/[ab]" comes back to itself without going into a property or an item/);
  });
});

// The count of subschemas applied to one part counted a key's `items` and `contains` too: a
// chain of them under `propertyNames`, never applied to a string, was refused as doubling.
describe('a chain of $defs under propertyNames, each naming the next in items and contains', () => {
  it('is taken at 30 links: a key has no items', () => {
    expect(unusableRefs(keyChain(30))).toBeUndefined();
    expect(checkingCost(keyChain(30))).toBeUndefined();
  });

  it('is refused at 30 links once it is a property: each link doubles the items checked', () => {
    const { propertyNames, ...rest } = keyChain(30);
    expect(unusableRefs({ ...rest, properties: { x: propertyNames } })).toMatch(/^checking one part of a value would apply its subschemas more than 100,000 times/);
  });
});
