import { describe, expect, it } from 'vitest';
import { unrunnablePatterns } from '../../src/mcp/mcp-schema-patterns.js';
import { jsonSchemaValidator, unenforcedPatterns } from '../../src/tools/json-schema-validator.js';
import { linearRegExpRefusal, MAX_PATTERN_WORK } from '../../src/validation/linear-regexp.js';
import { regExpSize } from '../../src/validation/regexp-size.js';
import { defineTool } from '../../src/tools/define-tool.js';

// RE2 is linear in the input, but its program has no bound: `\w{1000}` makes a thousand
// copies of `\w`, each work at every character. Nine of them cost ~340 µs a character; a
// thousand (8 KB of text) took 2 s and ~150 MB to compile; 400 (3,200 characters) ~0.8 s.
const NINE = `${'\\w{1000}'.repeat(9)}\\d`;
const MANY = '\\w{1000}'.repeat(400);

/** Expects `regExpSize(pattern, bound)` to be `size` for each row, all rows compared at once (a failure shows which). */
function expectSizes(rows: readonly (readonly [pattern: string, bound: number, size: number])[]): void {
  expect(rows.map(([pattern, bound]) => [pattern, regExpSize(pattern, bound)])).toEqual(rows.map(([pattern, , size]) => [pattern, size]));
}

describe('the size of the program RE2 would compile a pattern into', () => {
  it('counts atoms, each counted repeat multiplying what it repeats, nested repeats multiplied', () => {
    expectSizes([
      ['^[a-z]{1,64}$', 1000, 66],
      ['^\\d{4}-\\d{2}-\\d{2}$', 1000, 12],
      ['(?:\\w{100}){10}', 10_000, 1000],
      ['((a{10}){10}){10}', 10_000, 1000],
      ['(a|b){500}', 10_000, 1000],
      ['a{2,}', 1000, 3],
      ['^(?<year>\\d{4})$', 1000, 6],
    ]);
  });

  it('reads escaped braces, braces in a class, and property and code-point escapes as no repeat', () => {
    expectSizes([
      ['\\{1000\\}', 1000, 6],
      ['[{1000}]x', 1000, 2],
      ['[\\]{1000}]', 1000, 1],
      ['\\p{L}{3}', 1000, 3],
      ['\\u{1F600}', 1000, 1],
      // A brace that opens no count is a character: `{a}` and an unclosed `{1000`.
      ['x{a}', 1000, 4],
      ['x{1000', 1000, 6],
    ]);
  });

  it('stops once over the bound, however deep the repeats nest', () => {
    expect(regExpSize('((((a{1000}){1000}){1000}){1000}){1000}', 1000)).toBeGreaterThan(1000);
    expect(regExpSize(MANY, 1000)).toBeGreaterThan(1000);
    expect(regExpSize(`${'(?:'.repeat(60)}a{2}${'){2}'.repeat(60)}`, 1000)).toBeGreaterThan(1000);
  });
});

describe('patterns over the bounds are not run', () => {
  it('refuses a pattern whose program is over 1,000 steps, or whose text is over 4,096 characters, without compiling it', () => {
    expect(linearRegExpRefusal(NINE)).toMatch(/^it would compile to a program of over 1000 steps, .*use smaller counts, or maxLength/);
    expect(linearRegExpRefusal(MANY)).toMatch(/over 1000 steps/);
    expect(linearRegExpRefusal('(?:\\w{100}){11}')).toMatch(/over 1000 steps/);
    expect(linearRegExpRefusal(`^(?:${'[a-z]|'.repeat(900)}x)$`)).toBe('it is 5407 characters long; at most 4096 are compiled');
  });

  it('keeps the patterns schemas use: names, UUIDs, dates, emails, phone numbers, a long bounded count', () => {
    const usual = [
      '^[a-z]{1,64}$',
      '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
      '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2}))?$',
      '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
      '^\\+?[1-9]\\d{1,14}$',
      '^[a-zA-Z0-9_-]{1,255}$',
      '^.{0,900}$',
    ];
    expect(usual.map((p) => linearRegExpRefusal(p))).toEqual(usual.map(() => undefined));
    expect(jsonSchemaValidator({ type: 'string', pattern: usual[1]! })('123e4567-e89b-12d3-a456-426614174000').problems).toBeUndefined();
    expect(jsonSchemaValidator({ type: 'string', pattern: usual[1]! })('123e4567').problems).toMatch(/must match pattern/);
  });

  it('leaves such a pattern unenforced in a schema, and says so, as one RE2 cannot run', () => {
    const schema = { type: 'object', properties: { w: { type: 'string', pattern: NINE }, n: { type: 'number' } } };
    expect(jsonSchemaValidator(schema)({ w: 'a' }).problems).toBeUndefined();
    expect(jsonSchemaValidator(schema)({ n: 'x' }).problems).toBe('"n" must be number');
    expect(unenforcedPatterns(schema)).toEqual([{ pattern: NINE, reason: expect.stringContaining('over 1000 steps') }]);
  });

  it('finds such patterns in an MCP tool’s schema without compiling them', () => {
    const properties = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`p${i}`, { type: 'string', pattern: `${MANY}${i}` }]));
    const found = unrunnablePatterns({ type: 'object', properties });
    // Compared as suffixes and reasons: a failure would print 3,200-character patterns.
    expect(found.map((p) => [p.pattern === `${MANY}${p.pattern.at(-1)}`, p.pattern.at(-1), p.reason.includes('over 1000 steps')]).sort()).toEqual(
      Array.from({ length: 7 }, (_, i) => [true, String(i), true]),
    );
  });
});

// The advice was "rewrite it without lookahead, lookbehind or backreferences" whatever the
// reason: a pattern refused for its size uses none of those.
describe('a user tool whose JSON schema has a pattern over the bounds', () => {
  const tool = (pattern: string) => () =>
    defineTool({ name: 'pick', description: 'd', input: { type: 'object', properties: { a: { type: 'string', pattern } } }, execute: () => 'ok' });

  it.each([
    ['a program over 1,000 steps', NINE, /over 1000 steps/],
    ['a text over 4,096 characters', 'a|'.repeat(2_100), /4200 characters long; at most 4096/],
  ])('is refused for %s, told to make it smaller (maxLength for a length), not to drop lookaheads', (_what, pattern, reason) => {
    expect(tool(pattern)).toThrow(TypeError);
    expect(tool(pattern)).toThrow(reason);
    expect(tool(pattern)).toThrow(/Make it smaller: bound the length with maxLength \(not a counted repeat such as \{1,5000\}\), simplify the pattern, or check that in `execute`\.$/);
    expect(tool(pattern)).not.toThrow(/lookahead/);
  });

  it('one RE2 cannot run for what it uses is still told to drop lookaheads', () => {
    expect(tool('^(?!tmp)')).toThrow(/Rewrite it without lookahead, lookbehind or backreferences, or check that in `execute`\.$/);
  });
});

describe('a string too long for its pattern’s program', () => {
  it('fails the pattern, in words that say it was too long to check, not that it did not match', () => {
    const validate = jsonSchemaValidator({ type: 'object', properties: { s: { type: 'string', pattern: '^\\w+$' } } });
    const limit = Math.floor(MAX_PATTERN_WORK / 3);
    expect(validate({ s: 'a'.repeat(limit) }).problems).toBeUndefined();
    expect(validate({ s: 'a'.repeat(limit + 1) }).problems).toBe(
      `"s" is ${limit + 1} characters long, too long to be checked against the pattern "^\\\\w+$": at most ${limit}`,
    );
    expect(validate({ s: '!' }).problems).toBe('"s" must match pattern "^\\w+$"');
  });

  it('bounds the work of a large program: 3,000 characters against a 901-step pattern fail, though it would match them', () => {
    const validate = jsonSchemaValidator({ type: 'string', pattern: '^\\w{900}' });
    expect(validate('a'.repeat(1_163)).problems).toBeUndefined();
    expect(validate('a'.repeat(3_000)).problems).toBe('the arguments is 3000 characters long, too long to be checked against the pattern "^\\\\w{900}": at most 1163');
  });
});
