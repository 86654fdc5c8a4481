import { describe, expect, it } from 'vitest';
import { jsonSchemaValidator } from '../../src/tools/json-schema-validator.js';
import { compileSchema } from '../../src/validation/validator.js';

const UNIQUE = { type: 'array', uniqueItems: true } as const;

/** The `[earlier, later]` indexes of the duplicate the one validator reports, or `undefined` when the list passes. */
function duplicateOf(list: unknown[], schema: object = UNIQUE): [number, number] | undefined {
  const { validate } = compileSchema(schema);
  if (validate(list)) return undefined;
  const [error] = validate.errors ?? [];
  expect(error).toMatchObject({ keyword: 'uniqueItems' });
  return [error!.params['j'] as number, error!.params['i'] as number];
}

describe('uniqueItems in the one validator', () => {
  it('reads each item once: uniqueness is checked in linear work, not by comparing every pair', () => {
    // Each item counts the reads of its one key. Comparing every pair (ajv's own check) reads
    // each key about n times (some 4 million reads here); a key per item reads it once.
    const n = 2_000;
    let reads = 0;
    const list = Array.from({ length: n }, (_, i) => ({
      get k() {
        reads += 1;
        return i;
      },
    }));
    expect(duplicateOf(list)).toBeUndefined();
    expect(reads).toBe(n);
  });

  it('passes 20,000 distinct objects (an MCP result that held the event loop 9 s) and finds one duplicate among them', () => {
    const list: unknown[] = Array.from({ length: 20_000 }, (_, i) => ({ k: i, name: `item ${i}` }));
    expect(duplicateOf(list)).toBeUndefined();
    list.push({ name: 'item 17', k: 17 });
    expect(duplicateOf(list)).toEqual([17, 20_000]);
  });

  it('compares as JSON schema does: objects whatever their key order, arrays item by item, values by type', () => {
    expect(duplicateOf([{ a: 1, b: [2, { c: 3, d: 4 }] }, 'x', { b: [2, { d: 4, c: 3 }], a: 1 }])).toEqual([0, 2]);
    expect(duplicateOf([0, -0])).toEqual([0, 1]);
    expect(duplicateOf([[1, 2], [2, 1], [1, 2]])).toEqual([0, 2]);
    expect(duplicateOf([1, '1', [1], ['1'], { 1: 1 }, { 1: '1' }, null, 'null', true, 'true', {}, []])).toBeUndefined();
    expect(duplicateOf([{ a: 1 }, { a: 1, b: 2 }, { b: 2 }])).toBeUndefined();
  });

  it('finds a repeated "__proto__" string, which ajv\'s own check of string lists let through', () => {
    expect(duplicateOf(['__proto__', 'a', '__proto__'], { ...UNIQUE, items: { type: 'string' } })).toEqual([0, 2]);
  });

  it('counts a value JSON cannot hold (configuration given in code) equal only to itself', () => {
    const f = (): void => undefined;
    expect(duplicateOf([f, () => undefined])).toBeUndefined();
    expect(duplicateOf([f, 'f', f])).toEqual([0, 2]);
  });

  it('keeps ajv\'s wording, so a tool\'s argument problem reads as before', () => {
    const check = jsonSchemaValidator({ type: 'object', properties: { tags: { ...UNIQUE, items: { type: 'string' } } } });
    expect(check({ tags: ['a', 'b', 'a'] })).toEqual({ problems: '"tags" must NOT have duplicate items (items ## 0 and 2 are identical)' });
    expect(check({ tags: ['a', 'b'] })).toEqual({ value: { tags: ['a', 'b'] } });
    expect(compileSchema({ ...UNIQUE, uniqueItems: false }).validate([1, 1])).toBe(true);
  });
});
