import { describe, expect, it } from 'vitest';
import { mcpOutputValidator } from '../../src/mcp/mcp-output-validator.js';
import { jsonSchemaValidator } from '../../src/tools/json-schema-validator.js';
import { unusableRefs } from '../../src/validation/schema-refs.js';
import { compileSchema } from '../../src/validation/validator.js';

// ajv knows `$async`: the validator it compiles for such a schema answers a Promise. Read as
// a verdict, the Promise is truthy (the value "fits"), and when the value does not fit the
// Promise rejects with nobody to catch it: Node ends the process.
const ASYNC = { $async: true, type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

describe('a schema with "$async": true', () => {
  it('is refused by the one validator, in words that say what to change', () => {
    expect(() => compileSchema({ ...ASYNC })).toThrow('the schema has "$async": true, and asynchronous schemas are not supported here');
    expect(() => jsonSchemaValidator({ ...ASYNC })).toThrow(/leave "\$async" out/);
    // Any truthy `$async` makes ajv's validator async.
    expect(() => compileSchema({ $async: 1, type: 'string' })).toThrow(/"\$async": true/);
    expect(compileSchema({ $async: false, type: 'string' }).validate('x')).toBe(true);
  });

  it('is a schema from outside no call can be checked against, at the root or below', () => {
    expect(unusableRefs({ ...ASYNC })).toBe('it has "$async": true (at the root): asynchronous schemas are not supported here');
    expect(unusableRefs({ type: 'object', properties: { a: { $async: true, type: 'string' } } })).toBe(
      'it has "$async": true (at /properties/a): asynchronous schemas are not supported here',
    );
    expect(unusableRefs({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
  });

  it('as an MCP output schema checks nothing, and no Promise is left to reject', async () => {
    const validate = mcpOutputValidator.getValidator<unknown>({ ...ASYNC });
    expect(validate({ n: 'not a number' })).toEqual({ valid: true, data: { n: 'not a number' }, errorMessage: undefined });
    expect(validate({ n: 1 }).valid).toBe(true);
    // An unhandled rejection would surface by now and fail this file.
    await new Promise((resolve) => setImmediate(resolve));
  });
});
