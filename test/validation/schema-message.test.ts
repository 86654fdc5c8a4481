import { describe, expect, it } from 'vitest';
import { firstProblem, schemaProblem } from '../../src/validation/schema-message.js';
import { compileSchema } from '../../src/validation/validator.js';

const SCHEMA = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', description: 'an id', hint: { types: ['number'], unless: 'label', text: 'quote it' } },
    names: { anyOf: [{ type: 'array', items: { type: 'string', description: 'a name' } }, { type: 'string', pattern: '^[a-z, ]*$', errorMessage: '{subject} must be lower-case names, got {value}' }], description: 'names' },
    rules: { type: 'array', itemSubject: 'rule {index} of {subject}', items: { type: 'object', properties: { on: { type: 'boolean', description: 'true or false' } }, additionalProperties: false } },
    size: { type: 'integer', minimum: 1, errorMessage: { minimum: '{name} is {json}: too small' } },
    label: { type: 'string' },
  },
  allOf: [{ not: { required: ['size', 'label'] }, errorMessage: 'size or label, not both' }],
} as const;

const problem = (data: Record<string, unknown>, spelled: (path: readonly string[]) => string = (path) => path.at(-1)!): string | undefined => {
  const { validate } = compileSchema(SCHEMA);
  return validate(data) ? undefined : schemaProblem(SCHEMA, validate.errors ?? [], data, { holder: 'the file', spelled });
};

describe('the one message formatter over ajv errors', () => {
  it('words the first key of the schema first, then problems of the whole', () => {
    expect(problem({ size: 0, label: 'x' })).toBe('the file has no "id"');
    expect(problem({ id: 'a', size: 3, label: 'x' })).toBe('size or label, not both');
  });

  it('names a key as the source spelled it, and adds a hint only when its condition holds', () => {
    expect(problem({ id: 7 }, (path) => (path[0] === 'id' ? 'ID' : path.at(-1)!))).toBe('"ID" must be an id, got the number 7 (quote it)');
    expect(problem({ id: 7, label: 'x' })).toBe('"id" must be an id, got the number 7');
  });

  it('takes the deepest problem, the most specific keyword, and the anyOf when only types failed', () => {
    expect(problem({ id: 'a', names: ['x', 3] })).toBe('"names" item 2 must be a name, got the number 3');
    expect(problem({ id: 'a', names: 'Ab' })).toBe('"names" must be lower-case names, got the string "Ab"');
    expect(problem({ id: 'a', names: 3 })).toBe('"names" must be names, got the number 3');
  });

  it('uses per-keyword templates, a list\'s itemSubject and the unknown-key wording', () => {
    expect(problem({ id: 'a', size: 0 })).toBe('size is 0: too small');
    expect(problem({ id: 'a', rules: [{ on: true }, { on: 'yes' }] })).toBe('rule 1 of "rules": "on" must be true or false, got the string "yes"');
    expect(problem({ id: 'a', rules: [{ of: true }] })).toBe('rule 0 of "rules": unknown key "of" (allowed: on)');
  });

  // Options given in code (engine options, permission rules) are worded by the same formatter.
  const OPTIONS = {
    type: 'object',
    required: ['model'],
    properties: {
      model: { type: 'string', errorMessage: '{subject} must be a model name, e.g. "gpt-4o-mini"' },
      limits: { type: 'object', description: 'step limits', properties: { steps: { type: 'integer', minimum: 1, description: 'an integer >= 1' } }, additionalProperties: false },
      dirs: { type: 'array', items: { type: 'string', description: 'a string', errorMessage: '{subject} must be {description}, got {type}' } },
    },
    additionalProperties: false,
    errorMessage: { additionalProperties: 'unknown option {unknown}; known options: {known}' },
  } as const;
  const inCode = (data: unknown) => firstProblem(OPTIONS, data, { holder: 'options', spelled: (path) => path.at(-1)!, names: 'code', values: 'literal' });

  it('names paths and values as code does, and every unknown key at once, before any other problem', () => {
    expect(inCode({ model: 'm', limits: { steps: 0 } })?.message).toBe('`limits.steps` must be an integer >= 1, got 0');
    expect(inCode({ model: 'm', dirs: ['a', null] })?.message).toBe('`dirs[1]` must be a string, got null');
    expect(inCode({ dirs: 3, modl: 'm', mdel: 'm' })?.message).toBe('unknown option "modl", "mdel"; known options: model, limits, dirs');
    expect(inCode({ model: 'm', limits: { step: 1, stps: 2 } })?.message).toBe('`limits`: unknown key "step", "stps" (allowed: steps)');
  });

  it('words a missing key by its own template, and answers the schema whose keyword failed', () => {
    expect(inCode({})?.message).toBe('`model` must be a model name, e.g. "gpt-4o-mini"');
    expect(inCode({ model: 'm', limits: { steps: 1.5 } })).toMatchObject({ path: ['limits', 'steps'], schema: { type: 'integer' } });
    expect(inCode({ model: 'm' })).toBeUndefined();
  });
});
