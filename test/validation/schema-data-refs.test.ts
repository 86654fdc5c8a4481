import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import { unrunnablePatterns } from '../../src/mcp/mcp-schema-patterns.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { compileSchema } from '../../src/validation/validator.js';
import { unusableRefs } from '../../src/validation/schema-refs.js';

/** A string schema whose pattern RE2 cannot run (a lookahead): not enforced, so a warning is owed. */
const LOOKAHEAD = { type: 'string', pattern: '^(?!tmp)' };

/** The property `p` names, through `ref`, `LOOKAHEAD` held under a data keyword. */
const REFS_INTO_DATA: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['#/default', { type: 'object', default: LOOKAHEAD, properties: { p: { $ref: '#/default' } } }],
  ['#/examples/0', { type: 'object', examples: [LOOKAHEAD], properties: { p: { $ref: '#/examples/0' } } }],
  ['#/const', { type: 'object', const: LOOKAHEAD, properties: { p: { $ref: '#/const' } } }],
  ['#/enum/0', { type: 'object', enum: [LOOKAHEAD], properties: { p: { $ref: '#/enum/0' } } }],
  ['#/properties/q/default', { type: 'object', properties: { q: { default: LOOKAHEAD }, p: { $ref: '#/properties/q/default' } } }],
];

// The validator follows a `#/…` pointer under any key and reads what it finds as a schema,
// but the warning of an MCP tool's unenforced patterns walks subschemas, not data: a `$ref`
// into `default` took a pattern RE2 cannot run past it, unchecked and unannounced.
describe('a schema from outside with a $ref into a data keyword (default, examples, const, enum)', () => {
  it.each(REFS_INTO_DATA)('is refused (%s), naming the ref, where it stands and the keyword', (ref, schema) => {
    const keyword = /^#\/(?:properties\/q\/)?(\w+)/.exec(ref)![1]!;
    expect(unusableRefs(schema)).toBe(`its $ref "${ref}" (at /properties/p) points into "${keyword}", which holds a value, not a schema: name a subschema ($defs, a property) instead`);
  });

  it('is a schema to the validator, whose pattern the pattern warning does not see', () => {
    const [, schema] = REFS_INTO_DATA[0]!;
    // Read as a schema: a number is refused as no string; the lookahead goes unenforced.
    const { validate, unenforced } = compileSchema(schema);
    expect(validate({ p: 3 })).toBe(false);
    expect(validate({ p: 'tmp' })).toBe(true);
    expect(unenforced.map((u) => u.pattern)).toEqual(['^(?!tmp)']);
    expect(unrunnablePatterns(schema as JsonObject)).toEqual([]);
  });

  it('passes a $ref to a property or a $def named like a data keyword', () => {
    expect(unusableRefs({ type: 'object', properties: { default: LOOKAHEAD, p: { $ref: '#/properties/default' } } })).toBeUndefined();
    expect(unusableRefs({ type: 'object', $defs: { enum: LOOKAHEAD, examples: { type: 'number' } }, properties: { p: { $ref: '#/$defs/enum' }, n: { $ref: '#/$defs/examples' } } })).toBeUndefined();
    expect(unusableRefs({ type: 'object', allOf: [{ properties: { const: { type: 'string' } } }], properties: { p: { $ref: '#/allOf/0/properties/const' } } })).toBeUndefined();
  });
});

// A tool author's own schema is judged by its compiled patterns, which follow the ref as the
// validator does: the pattern is refused there, as in any other place.
describe('defineTool with a $ref into a data keyword holding a pattern RE2 cannot run', () => {
  it.each(REFS_INTO_DATA)('refuses the pattern (%s)', (_ref, schema) => {
    expect(() => defineTool({ name: 'data_ref', description: 'd', input: schema, execute: () => 'ran' })).toThrow(/^defineTool\("data_ref"\): `input` has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run/);
  });
});
