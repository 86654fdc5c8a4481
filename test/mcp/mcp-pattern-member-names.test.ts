import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import { unrunnablePatterns } from '../../src/mcp/mcp-schema-patterns.js';
import { compileSchema } from '../../src/validation/validator.js';

const LOOKAHEAD = '^(?!tmp)'; // RE2 cannot run it: the validator leaves it unchecked
const DATA_NAMES = ['default', 'enum', 'const', 'examples'];
const string = { type: 'string', pattern: LOOKAHEAD };

// Where a schema names its members, the names are names, not keywords: a property called
// `default` holds a schema like one called `name`.
const placed: Array<[string, (name: string) => JsonObject]> = [
  ['properties', (name) => ({ type: 'object', properties: { [name]: string } })],
  ['patternProperties', (name) => ({ type: 'object', patternProperties: { '^a$': { type: 'object', properties: { [name]: string } } } })],
  ['$defs', (name) => ({ type: 'object', $defs: { [name]: string }, properties: { a: { $ref: `#/$defs/${name}` } } })],
  ['definitions', (name) => ({ type: 'object', definitions: { [name]: string }, properties: { a: { $ref: `#/definitions/${name}` } } })],
];

// A property's unrunnable pattern was not warned of when the property was named like a data
// keyword: the walk skipped the value under any key `default`, `enum`, `const` or `examples`.
describe('an MCP tool schema whose member is named like a data keyword', () => {
  describe.each(placed)('under %s', (_where, schemaWith) => {
    it.each(DATA_NAMES)('named %s: its unrunnable pattern is found, as the validator leaves it unchecked', (name) => {
      const schema = schemaWith(name);
      expect(compileSchema(schema).unenforced.map((u) => u.pattern)).toEqual([LOOKAHEAD]);
      expect(unrunnablePatterns(schema).map((u) => u.pattern)).toEqual([LOOKAHEAD]);
    });
  });

  it('a data keyword of a schema is still data: a `pattern` in a default value is no pattern', () => {
    const schema = { type: 'object', default: { pattern: LOOKAHEAD }, properties: { a: { type: 'string', enum: [{ pattern: LOOKAHEAD }] } } };
    expect(compileSchema(schema).unenforced).toEqual([]);
    expect(unrunnablePatterns(schema)).toEqual([]);
  });
});
