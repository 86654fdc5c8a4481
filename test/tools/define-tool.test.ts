import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { Type } from 'typebox';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkToolArguments } from '../../src/tools/args-check.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool } from '../../src/tools/tool.js';

const check = (tool: Tool, args: unknown) => checkToolArguments(tool, args);

describe('defineTool: the schema the model sees', () => {
  it('is derived from a zod schema once, without the $schema dialect line', () => {
    const tool = defineTool({ name: 'z', description: 'd', input: z.object({ city: z.string().min(1).describe('The city.') }), execute: () => 'ok' });
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1, description: 'The city.' } },
      required: ['city'],
    });
    expect(tool.parameters).toBe(tool.parameters); // derived at definition, not per read
  });

  it('is derived from a valibot schema wrapped by toStandardJsonSchema', () => {
    const tool = defineTool({ name: 'v', description: 'd', input: toStandardJsonSchema(v.object({ n: v.number() })), execute: () => 'ok' });
    expect(tool.parameters).toEqual({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
  });

  it('is the JSON schema itself for TypeBox and plain JSON schemas (the same object, so it compiles once)', () => {
    const input = Type.Object({ path: Type.String() });
    expect(defineTool({ name: 't', description: 'd', input, execute: () => 'ok' }).parameters).toBe(input);
    const plain = { type: 'object', properties: { a: { type: 'integer' } } } as const;
    expect(defineTool({ name: 'p', description: 'd', input: plain, execute: () => 'ok' }).parameters).toBe(plain);
  });

  it('reads description and modelParameters getters again at every read', () => {
    let names = ['a'];
    const tool = defineTool({
      name: 'pick',
      get description() {
        return `Pick one of ${names.join(', ')}.`;
      },
      input: Type.Object({ name: Type.String() }),
      get modelParameters() {
        return { type: 'object', properties: { name: { type: 'string', enum: names } } };
      },
      execute: () => 'ok',
    });
    expect(tool.description).toBe('Pick one of a.');
    names = ['a', 'b'];
    expect(tool.description).toBe('Pick one of a, b.');
    expect(tool.modelParameters).toEqual({ type: 'object', properties: { name: { type: 'string', enum: ['a', 'b'] } } });
    expect('modelParameters' in defineTool({ name: 'plain', description: 'd', input: Type.Object({}), execute: () => 'ok' })).toBe(false);
  });
});

describe('defineTool: checking a call’s arguments', () => {
  it('a zod tool: execute gets the output value (transforms and defaults applied)', () => {
    const tool = defineTool({ name: 'z', description: 'd', input: z.object({ n: z.string().transform(Number), unit: z.enum(['C', 'F']).default('C') }), execute: () => 'ok' });
    expect(check(tool, { n: '42' })).toEqual({ value: { n: 42, unit: 'C' } });
    expect(check(tool, { n: 42, unit: 'K' }).problems).toBe(
      '"n" invalid input: expected string, received number; "unit" invalid option: expected one of "C"|"F"',
    );
  });

  it('reads like the built-in tools: missing and unknown properties, nested paths', () => {
    const strict = z.strictObject({ path: z.string(), inner: z.object({ b: z.number() }), list: z.array(z.object({ c: z.boolean() })) });
    const tool = defineTool({ name: 'z', description: 'd', input: strict, execute: () => 'ok' });
    expect(check(tool, { inner: {}, list: [{ c: 'no' }], extra: 1 }).problems).toBe(
      'the arguments must have the property "path"; "inner" must have the property "b"; "list.0.c" invalid input: expected boolean, received string; the arguments has an unknown property "extra"',
    );
    const valibot = toStandardJsonSchema(v.strictObject({ path: v.string(), inner: v.object({ b: v.number() }) }));
    const tool2 = defineTool({ name: 'v', description: 'd', input: valibot, execute: () => 'ok' });
    expect(check(tool2, { path: 1, inner: {}, extra: true }).problems).toBe(
      '"path" invalid type: Expected string but received 1; "inner" must have the property "b"; the arguments has an unknown property "extra"',
    );
  });

  it('a TypeBox tool: ajv, with today’s wording', () => {
    const tool = defineTool({ name: 't', description: 'd', input: Type.Object({ path: Type.String() }, { additionalProperties: false }), execute: () => 'ok' });
    expect(check(tool, { path: 3, x: 1 }).problems).toBe('the arguments has an unknown property "x"; "path" must be string');
    expect(check(tool, {}).problems).toBe('the arguments must have the property "path"');
    const args = { path: 'a' };
    expect(check(tool, args).value).toBe(args);
  });

  it('keeps its validator when the tool is copied with a spread', () => {
    const tool = defineTool({ name: 'z', description: 'd', input: z.object({ n: z.string().transform(Number) }), execute: () => 'ok' });
    expect(check({ ...tool, name: 'copy' }, { n: '7' })).toEqual({ value: { n: 7 } });
  });

  it('an asynchronous schema fails the call with a clear problem, not the run', () => {
    const tool = defineTool({ name: 'slow', description: 'd', input: z.object({ a: z.string().refine(async () => true) }), execute: () => 'ok' });
    expect(check(tool, { a: 'x' }).problems).toMatch(/^its zod schema answered with a promise \(an async refinement, or a check that threw\?\), which a tool's input cannot wait for/);
  });

  it('a schema that throws while checking fails the call with its message', () => {
    // Any Standard Schema with a JSON side will do, not only the known libraries.
    const input = {
      '~standard': {
        version: 1 as const,
        vendor: 'handmade',
        validate: (): never => {
          throw new Error('boom');
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    };
    const tool = defineTool({ name: 'bad', description: 'd', input, execute: () => 'ok' });
    expect(check(tool, { a: 'x' }).problems).toBe('its handmade schema failed while checking them (boom)');
  });
});

describe('defineTool: refusing a definition it cannot honour', () => {
  const make = (input: unknown, name = 'x') => () => defineTool({ name, description: 'd', input: input as object, execute: () => 'ok' });

  it.each([
    ['a valibot schema without its JSON side', v.object({ a: v.string() }), /defineTool\("x"\): `input` \(valibot\) cannot describe itself as a JSON schema .* toStandardJsonSchema\(schema\) from @valibot\/to-json-schema/],
    ['a schema of something other than an object', z.string(), /defineTool\("x"\): `input` must describe an object .* has type "string"/],
    ['a zod type JSON cannot hold', z.object({ when: z.date() }), /defineTool\("x"\): could not derive a JSON schema from `input` \(zod\): Date cannot be represented in JSON Schema/],
    ['an invalid JSON schema', { type: 'object', properties: { a: { type: 'strng' } } }, /defineTool\("x"\): `input` is not a valid JSON schema: .*type/],
    ['a JSON schema without type object', { properties: {} }, /must describe an object .* has type undefined/],
    ['no schema at all', undefined, /`input` must be a Standard Schema \(zod, valibot, arktype\.\.\.\) or a JSON schema object, got undefined/],
  ])('%s', (_, input, message) => {
    expect(make(input)).toThrow(TypeError);
    expect(make(input)).toThrow(message);
  });

  it('a missing name', () => {
    expect(make(Type.Object({}), '')).toThrow('defineTool: `name` must be a non-empty string, got ""');
  });
});
