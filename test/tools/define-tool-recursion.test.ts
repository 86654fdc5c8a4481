import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import { checkToolArguments } from '../../src/tools/args-check.js';
import { defineTool } from '../../src/tools/define-tool.js';

/** Arrays of arrays, recurring through both `items` and `contains`: each level checked twice over (22 levels exhausted the heap). */
const ITEMS_AND_CONTAINS: JsonObject = { type: 'object', $defs: { t: { type: 'array', items: { $ref: '#/$defs/t' }, contains: { $ref: '#/$defs/t' } } }, properties: { x: { $ref: '#/$defs/t' } } };

/** 30 `$defs`, each naming the next in two `allOf` branches: one value checked 2^30 times over. */
const chain = (links: number): JsonObject => {
  const $defs: Record<string, JsonObject> = { [`l${links}`]: { type: 'string' } };
  for (let i = 0; i < links; i++) $defs[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
  return { type: 'object', $defs, properties: { x: { $ref: '#/$defs/l0' } } };
};

/** A tree of steps, each titled: recurs once into each part, as most do. */
const TREE: JsonObject = {
  type: 'object',
  $defs: { title: { type: 'string', minLength: 1 }, step: { type: 'object', properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } }, required: ['title'] } },
  properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } },
};

const define = (input: object) => () => defineTool({ name: 'nested', description: 'd', input, execute: () => 'ran' });

// An MCP tool's schema was refused when checking calls against it would double at every level
// of a value (or link of a chain of $defs); a tool author's own JSON schema, checked by the
// same ajv, was taken, and a call could then hold the event loop for minutes.
describe('defineTool: a JSON schema whose checking doubles at every level or link', () => {
  it('is refused when its recursion applies twice to one part of a value, naming the tool, both places and the mend', () => {
    const attempt = define(ITEMS_AND_CONTAINS);
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(/^defineTool\("nested"\): `input` would take too long to check calls against: its recursive subschemas at \/\$defs\/t\/items and \/\$defs\/t\/contains apply to the same part of a value/);
    expect(attempt).toThrow(/let one subschema recur into each part \(items or contains, not both/);
  });

  it('is refused when its $defs name the next twice, 30 links deep, saying what to change', () => {
    const attempt = define(chain(30));
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(/^defineTool\("nested"\): `input` would take too long to check calls against: checking one part of a value would apply its subschemas more than 100,000 times/);
    expect(attempt).toThrow(/name each \$def once for each part of a value, or nest fewer unions$/);
  });

  it('is refused again when the same schema object is defined again', () => {
    const input = chain(30);
    expect(define(input)).toThrow(TypeError);
    expect(define(input)).toThrow(/more than 100,000 times/);
  });
});

describe('defineTool: schemas that check each part of a value a few times', () => {
  it('takes a tree and a 5-link chain, and checks calls against them', () => {
    const tree = defineTool({ name: 'plan', description: 'd', input: TREE, execute: () => 'ran' });
    expect(checkToolArguments(tree, { title: 'trip', steps: [{ title: 'pack', steps: [{ title: '' }] }] })).toMatchObject({ problems: expect.stringMatching(/"steps\.0\.steps\.0\.title" must NOT have fewer than 1 characters/) });
    const short = defineTool({ name: 'short', description: 'd', input: chain(5), execute: () => 'ran' });
    expect(checkToolArguments(short, { x: 'a' })).toMatchObject({ value: { x: 'a' } });
    expect(checkToolArguments(short, { x: 1 })).toMatchObject({ problems: expect.stringMatching(/"x" must be string/) });
  });

  it('takes TypeBox\'s refs by $id (Type.Cyclic), which the check does not follow', () => {
    const input = Type.Object({ root: Type.Cyclic({ Node: Type.Object({ id: Type.String(), nodes: Type.Array(Type.Ref('Node')) }) }, 'Node') });
    expect(() => defineTool({ name: 'tree', description: 'd', input, execute: () => 'ran' })).not.toThrow();
  });

  it('takes a Standard Schema whatever its JSON side: it checks calls itself, not ajv', () => {
    const standard = {
      '~standard': {
        version: 1,
        vendor: 'hand',
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => chain(30), output: () => chain(30) },
      },
    } as const;
    expect(() => defineTool({ name: 'own', description: 'd', input: standard, execute: () => 'ran' })).not.toThrow();
  });
});
