import { toStandardJsonSchema } from '@valibot/to-json-schema';
import fc from 'fast-check';
import { Type } from 'typebox';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkToolArguments } from '../../src/tools/args-check.js';
import { defineTool } from '../../src/tools/define-tool.js';

// One shape written in zod, valibot and TypeBox. Whatever single defect a call's arguments
// have — a leaf of the wrong type, a required key missing, an unknown key — each library's
// tool fails the call with a message that names the place in the same words: `"owner.id"`,
// `"owner" must have the property "id"`, `the arguments has an unknown property "x"`.

const tools = {
  zod: defineTool({
    name: 'z',
    description: 'd',
    input: z.strictObject({ name: z.string(), size: z.number().int().optional(), tags: z.array(z.string()), owner: z.strictObject({ id: z.string(), active: z.boolean() }) }),
    execute: () => 'ok',
  }),
  valibot: defineTool({
    name: 'v',
    description: 'd',
    input: toStandardJsonSchema(
      v.strictObject({ name: v.string(), size: v.optional(v.pipe(v.number(), v.integer())), tags: v.array(v.string()), owner: v.strictObject({ id: v.string(), active: v.boolean() }) }),
    ),
    execute: () => 'ok',
  }),
  typebox: defineTool({
    name: 't',
    description: 'd',
    input: Type.Object(
      {
        name: Type.String(),
        size: Type.Optional(Type.Integer()),
        tags: Type.Array(Type.String()),
        owner: Type.Object({ id: Type.String(), active: Type.Boolean() }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    execute: () => 'ok',
  }),
};

type Args = { name: string; size?: number; tags: string[]; owner: { id: string; active: boolean } };

const valid: fc.Arbitrary<Args> = fc.record(
  { name: fc.string(), size: fc.integer(), tags: fc.array(fc.string(), { maxLength: 4 }), owner: fc.record({ id: fc.string(), active: fc.boolean() }) },
  { requiredKeys: ['name', 'tags', 'owner'] },
);

const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
const notInteger = fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.constant(1.5), fc.constant({}));
const notBoolean = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant([]));
const unknownKey = fc.stringMatching(/^[a-z_]{1,8}$/).filter((k) => !['name', 'size', 'tags', 'owner', 'id', 'active'].includes(k));

/** One defect applied to valid arguments, and the words every message must contain. */
type Defect = (args: Args) => { args: unknown; says: string } | undefined;

const defects: fc.Arbitrary<Defect> = fc.oneof(
  notString.map((bad): Defect => (args) => ({ args: { ...args, name: bad }, says: '"name" ' })),
  notInteger.map((bad): Defect => (args) => ({ args: { ...args, size: bad }, says: '"size" ' })),
  notString.map((bad): Defect => (args) => ({ args: { ...args, owner: { ...args.owner, id: bad } }, says: '"owner.id" ' })),
  notBoolean.map((bad): Defect => (args) => ({ args: { ...args, owner: { ...args.owner, active: bad } }, says: '"owner.active" ' })),
  fc.tuple(fc.nat(), notString).map(([at, bad]): Defect => (args) => {
    if (args.tags.length === 0) return undefined;
    const i = at % args.tags.length;
    return { args: { ...args, tags: args.tags.map((t, j) => (j === i ? bad : t)) }, says: `"tags.${i}" ` };
  }),
  fc.constantFrom('name', 'tags', 'owner').map((key): Defect => (args) => {
    const { [key]: _gone, ...rest } = args;
    return { args: rest, says: `the arguments must have the property "${key}"` };
  }),
  fc.constantFrom('id', 'active').map((key): Defect => (args) => {
    const { [key]: _gone, ...owner } = args.owner;
    return { args: { ...args, owner }, says: `"owner" must have the property "${key}"` };
  }),
  unknownKey.map((key): Defect => (args) => ({ args: { ...args, [key]: 1 }, says: `the arguments has an unknown property "${key}"` })),
  unknownKey.map((key): Defect => (args) => ({ args: { ...args, owner: { ...args.owner, [key]: 1 } }, says: `"owner" has an unknown property "${key}"` })),
);

describe('validation messages of typed tools', () => {
  it('name the offending place in the same words, whichever library wrote the schema', () => {
    fc.assert(
      fc.property(valid, defects, (args, defect) => {
        const broken = defect(args);
        fc.pre(broken !== undefined);
        // As the model would send them: through JSON.
        const sent: unknown = JSON.parse(JSON.stringify(broken.args));
        for (const [library, tool] of Object.entries(tools)) {
          const checked = checkToolArguments(tool, sent);
          expect(checked.value, `${library} accepted ${JSON.stringify(sent)}`).toBeUndefined();
          expect(checked.problems, library).toContain(broken.says);
        }
      }),
      { seed: 15_2026, numRuns: 400 },
    );
  });

  it('accept every valid value, and give it to execute unchanged', () => {
    fc.assert(
      fc.property(valid, (args) => {
        const sent: unknown = JSON.parse(JSON.stringify(args));
        for (const tool of Object.values(tools)) expect(checkToolArguments(tool, sent)).toEqual({ value: sent });
      }),
      { seed: 15_2026, numRuns: 200 },
    );
  });
});
