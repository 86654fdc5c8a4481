import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/validation/validator.js';

// ajv registers a schema's root `$id` before it checks the schema. A schema it refuses (an AG-UI
// client's, answered 400) must not keep that `$id` taken in the shared instance: a later, valid
// schema with the same `$id` (a legitimate client's, TypeBox's `T0`) would fail "already exists".
describe('a schema the one validator refuses', () => {
  it('leaves its $id free for a later schema', () => {
    const id = 'https://app.example/weather.json';
    expect(() => compileSchema({ $id: id, type: 'object', properties: { city: { type: 'strin' } } })).toThrow(/must be equal to one of the allowed values|schema is invalid/);
    const { validate } = compileSchema({ $id: id, type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(validate({ city: 'Oslo' })).toBe(true);
    expect(validate({})).toBe(false);
  });

});
