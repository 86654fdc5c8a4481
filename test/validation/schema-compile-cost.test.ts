import { describe, expect, it } from 'vitest';
import { agUiServerPerTest } from '../support/ag-ui-server-per-test.js';
import { postRunAgentInput, user } from '../protocols/ag-ui/ag-ui-requests.js';
import { unusableRefs } from '../../src/validation/schema-refs.js';
import { compileSchema } from '../../src/validation/validator.js';

const agUi = agUiServerPerTest();

const nulls = (n: number) => Array.from({ length: n }, () => ({ type: 'null' }));
/** `refs` properties naming one `$def` of `branches` branches: ajv copies the `$def` into each. */
const namedEverywhere = (branches: number, refs: number) => ({
  type: 'object',
  $defs: { b: { anyOf: nulls(branches) } },
  properties: Object.fromEntries(Array.from({ length: refs }, (_, i) => [`p${i}`, { $ref: '#/$defs/b' }])),
});
const COPIED = /compiling it is too much work: counting a \$def again at every \$ref that names it .* more than 2,000 subschemas; name a large \$def from fewer places/;

// Small schemas from outside whose compiling held the event loop for seconds (19 s for the
// first, 4 KB): refused before ajv sees them, in words that say what to simplify.
describe('a schema from outside that is too much work to compile', () => {
  it('is refused when a $def is named from many places (counted at each)', () => {
    expect(unusableRefs(namedEverywhere(100, 100))).toMatch(/its anyOf at \/\$defs\/b has 100 branches, and at most 64 are compiled here/);
    expect(unusableRefs(namedEverywhere(60, 100))).toMatch(COPIED);
  });

  it('is refused for a long anyOf, oneOf or allOf', () => {
    const long = { type: 'object', properties: { p: { anyOf: nulls(1000) } } };
    expect(unusableRefs(long)).toBe('its anyOf at /properties/p has 1000 branches, and at most 64 are compiled here: merge branches (an enum for constant values), or split the tool');
    expect(unusableRefs({ type: 'object', properties: { p: { type: 'array', items: { oneOf: nulls(65) } } } })).toMatch(/its oneOf at \/properties\/p\/items has 65 branches/);
  });

  it('as an AG-UI frontend tool is a 400 saying what to simplify', async () => {
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const tools = [{ name: 'pick', description: 'd', parameters: namedEverywhere(60, 100) }];
    const answer = await postRunAgentInput(served.url, { threadId: 't-cost', runId: 'r1', messages: [user('go')], tools });
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.text) as { error: string }).error).toMatch(COPIED);
    expect(served.fixture.server.requests).toHaveLength(0);
  }, 30_000);

  it('passes when it is realistic: $defs named often but with refs of their own, a tree, a few branches', () => {
    const schema = {
      type: 'object',
      $defs: {
        country: { type: 'string', enum: ['NO', 'SE', 'DK'] },
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' }, country: { $ref: '#/$defs/country' } }, required: ['city'] },
        contact: { anyOf: [{ type: 'string', minLength: 3 }, { type: 'string', pattern: '^\\+?[0-9 ]+$' }, { type: 'null' }] },
        node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      },
      properties: {
        ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`site${i}`, { $ref: '#/$defs/address' }])),
        ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`contact${i}`, { $ref: '#/$defs/contact' }])),
        tree: { $ref: '#/$defs/node' },
        kind: { oneOf: nulls(64) },
      },
      required: ['tree'],
    };
    expect(unusableRefs(schema)).toBeUndefined();
    const { validate } = compileSchema(schema);
    expect(validate({ tree: { name: 'root', children: [{ name: 'leaf', children: [] }] }, site3: { city: 'Oslo', country: 'NO' } })).toBe(true);
    expect(validate({ tree: {}, site3: { city: 'Oslo', country: 'XX' } })).toBe(false);
  });

  // Each regex is compiled on its own (RE2: 0.3 to 2.5 ms), wherever it stands: 20,000 small
  // patterns, under any bound on size or subschemas, held the event loop for seconds.
  it('is refused past 500 regexes, pattern values and patternProperties keys, counted at each inlined copy', () => {
    const TOO_MANY = /^compiling it is too much work: it has more than 500 regular expressions \(pattern values and patternProperties keys, .*\), each compiled on its own; use enum for fixed values and fewer patterns, or send a smaller schema$/;
    const patterned = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string', pattern: `^a${i}$` }]));
    expect(unusableRefs({ type: 'object', properties: patterned(500) })).toBeUndefined();
    expect(unusableRefs({ type: 'object', properties: patterned(501) })).toMatch(TOO_MANY);
    const keys = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`^k${i}_`, { type: 'string' }]));
    expect(unusableRefs({ type: 'object', properties: patterned(200), patternProperties: keys })).toBeUndefined();
    expect(unusableRefs({ type: 'object', properties: patterned(201), patternProperties: keys })).toMatch(TOO_MANY);
    // A $def without refs is copied, its 10 patterns with it, to each of its 60 uses: 600.
    const copied = { type: 'object', $defs: { d: { type: 'object', properties: patterned(10) } }, properties: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`u${i}`, { $ref: '#/$defs/d' }])) };
    expect(unusableRefs(copied)).toMatch(TOO_MANY);
    // Data is no schema: `pattern` keys in an enum or a default compile nothing.
    expect(unusableRefs({ type: 'object', properties: patterned(400), default: patterned(400), enum: [patterned(400)] })).toBeUndefined();
  });

  it('takes a realistic schema with tens of patterns, compiles it, and enforces them', () => {
    const fields = ['email', 'phone', 'zip', 'iban', 'date', 'uuid', 'slug', 'sku', 'hex', 'ip'];
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${fields[i % 10]}${i}`, { type: 'string', pattern: `^[a-z0-9._-]{1,${64 + i}}$` }]));
    const schema = { type: 'object', properties };
    expect(unusableRefs(schema)).toBeUndefined();
    const { validate } = compileSchema(schema);
    expect(validate({ email0: 'a.b' })).toBe(true);
    expect(validate({ email0: 'A B' })).toBe(false);
  });
});
