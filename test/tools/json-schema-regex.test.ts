import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/tools/define-tool.js';
import { checkToolArguments } from '../../src/tools/args-check.js';
import { jsonSchemaValidator, unenforcedPatterns } from '../../src/tools/json-schema-validator.js';

// JavaScript's engine backtracks 2^64 times on this against `^(a+)+$`: a check on it would never return.
const EVIL = `${'a'.repeat(64)}!`;

describe('the regexes of a JSON schema run on a linear-time engine', () => {
  it('checks a catastrophic pattern against a hostile string and answers', () => {
    const validate = jsonSchemaValidator({ type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } } });
    expect(validate({ word: EVIL }).problems).toBe('"word" must match pattern "^(a+)+$"');
    expect(validate({ word: 'aaa' }).problems).toBeUndefined();
  });

  it('matches property names against patternProperties in linear time too', () => {
    const validate = jsonSchemaValidator({ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } }, additionalProperties: false });
    expect(validate({ [EVIL]: 1 }).problems).toBe(`the arguments has an unknown property "${EVIL}"`);
    expect(validate({ aaa: 'x' }).problems).toBe('"aaa" must be number');
  });

  it('keeps what JavaScript patterns usually say: unicode classes, named groups, escapes, unanchored search', () => {
    const check = (pattern: string, value: string): boolean => jsonSchemaValidator({ type: 'string', pattern })(value).problems === undefined;
    expect(check('^\\p{L}+$', 'été')).toBe(true);
    expect(check('^(?<year>\\d{4})-\\d{2}$', '2024-05')).toBe(true);
    expect(check('^[^/]+\\.ts$', 'src/a.ts')).toBe(false);
    expect(check('b', 'abc')).toBe(true);
    expect(check('^\\u00e9$', 'é')).toBe(true);
  });

  it('keeps apart two patterns of different schemas (ajv caches compiled patterns by their text)', () => {
    const a = jsonSchemaValidator({ type: 'string', pattern: '^a$' });
    const b = jsonSchemaValidator({ type: 'string', pattern: '^b$' });
    expect([a('a').problems, b('a').problems]).toEqual([undefined, 'the arguments must match pattern "^b$"']);
  });

  it('keeps checking with validators made long ago, however many schemas came since (ajv is renewed so old patterns can go)', () => {
    const first = jsonSchemaValidator({ type: 'string', pattern: '^first$' });
    for (let i = 0; i < 1_200; i++) jsonSchemaValidator({ type: 'string', pattern: `^p${i}$` });
    expect([first('first').problems, first('p1').problems]).toEqual([undefined, 'the arguments must match pattern "^first$"']);
    expect(jsonSchemaValidator({ type: 'string', pattern: '^p1$' })('p1').problems).toBeUndefined();
  });

  it('does not enforce a pattern RE2 cannot run, and says which and why', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(?!tmp)' }, n: { type: 'number' } } };
    expect(jsonSchemaValidator(schema)({ name: 'tmpx' }).problems).toBeUndefined();
    expect(jsonSchemaValidator(schema)({ n: 'x' }).problems).toBe('"n" must be number');
    expect(unenforcedPatterns(schema)).toEqual([{ pattern: '^(?!tmp)', reason: expect.stringContaining('(?!') }]);
  });

  it('refuses a user tool whose JSON schema has such a pattern, saying what to do', () => {
    const make = () =>
      defineTool({ name: 'pick', description: 'd', input: { type: 'object', properties: { a: { type: 'string', pattern: '(x)\\1' } } }, execute: () => 'ok' });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(/defineTool\("pick"\): `input` has the pattern "\(x\)\\\\1", which the linear-time regex engine \(RE2\) cannot run .*Rewrite it/);
  });

  it('checks a hand-written tool against its parameters on RE2 as well', () => {
    const tool = { name: 'w', description: 'd', parameters: { type: 'object', properties: { w: { type: 'string', pattern: '^(a+)+$' } } }, execute: () => 'ok' };
    expect(checkToolArguments(tool, { w: EVIL }).problems).toBe('"w" must match pattern "^(a+)+$"');
  });
});
