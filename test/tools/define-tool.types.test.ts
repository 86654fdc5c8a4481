import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { Type } from 'typebox';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { MultitaskArgs, TaskArgs } from '../../src/delegation/task-schemas.js';
import type { GenerateArgs } from '../../src/delegation/generate-tool.js';
import type { JsonObject } from '../../src/events/json.js';
import type { BashArgs, EditArgs, GrepArgs, ListArgs, ReadArgs, TodoArgs } from '../../src/tools/builtin/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool, ToolContext } from '../../src/tools/tool.js';

// Checked by `tsc` (npm run typecheck): `execute`'s argument type is inferred from `input`.
// The runtime part of each test only builds the tools.

describe('defineTool infers execute’s arguments from input', () => {
  it('from a zod schema: the output type, transforms and defaults applied', () => {
    const tool = defineTool({
      name: 'weather',
      description: 'The weather.',
      input: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C'), days: z.string().transform(Number).optional() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; unit: 'C' | 'F'; days?: number | undefined }>();
        return args.city;
      },
    });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ city: string; unit: 'C' | 'F'; days?: number | undefined }>>();
  });

  it('from a valibot schema with its JSON side', () => {
    defineTool({
      name: 'count',
      description: 'Counts.',
      input: toStandardJsonSchema(v.object({ n: v.number(), label: v.optional(v.string()) })),
      subject: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: number; label?: string | undefined }>();
        return args.label;
      },
      execute: ({ n }) => {
        expectTypeOf(n).toEqualTypeOf<number>();
        return String(n);
      },
    });
  });

  it('from a TypeBox schema: Static of it', () => {
    defineTool({
      name: 'move',
      description: 'Moves a file.',
      input: Type.Object({ from: Type.String(), to: Type.String(), force: Type.Optional(Type.Boolean()) }),
      paths: (args) => [args.from, args.to],
      execute: (args, context) => {
        expectTypeOf(args).toEqualTypeOf<{ from: string; to: string; force?: boolean | undefined }>();
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        return 'moved';
      },
    });
  });

  it('from a JSON schema literal: read like TypeBox reads one; from a JsonObject: any object', () => {
    defineTool({
      name: 'clock',
      description: 'Tells the time.',
      input: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ zone: string }>();
        return args.zone;
      },
    });
    const schema: JsonObject = { type: 'object' };
    defineTool({
      name: 'loose',
      description: 'Takes anything.',
      input: schema,
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return 'ok';
      },
    });
  });

  it('refuses a wrong use of the arguments at compile time', () => {
    defineTool({
      name: 'typed',
      description: 'Typed.',
      input: z.object({ path: z.string() }),
      // @ts-expect-error: `path` is a string, not a number
      execute: ({ path }) => path.toFixed(),
    });
  });

  it('refuses a Standard Schema without a JSON side at compile time', () => {
    const bare = v.object({ a: v.string() });
    // Not called: defineTool would throw for it at run time too.
    const make = () =>
      defineTool({
        name: 'bare',
        description: 'd',
        // @ts-expect-error: the model needs a JSON schema; wrap it in toStandardJsonSchema
        input: bare,
        execute: () => 'ok',
      });
    expectTypeOf(make).toBeFunction();
  });

  it('gives the built-in and delegation tools their argument types from their schemas', () => {
    expectTypeOf<ReadArgs>().toEqualTypeOf<{ path: string; offset?: number | undefined; limit?: number | undefined }>();
    expectTypeOf<EditArgs>().toEqualTypeOf<{ path: string; old_string: string; new_string: string; replace_all?: boolean | undefined }>();
    expectTypeOf<ListArgs>().toEqualTypeOf<{ path?: string | undefined }>();
    expectTypeOf<GrepArgs>().toEqualTypeOf<{ pattern: string; path?: string | undefined; include?: string | undefined }>();
    expectTypeOf<BashArgs>().toEqualTypeOf<{ command: string; timeout_ms?: number | undefined }>();
    expectTypeOf<TodoArgs['todos'][number]['status']>().toEqualTypeOf<'pending' | 'in_progress' | 'completed' | 'cancelled'>();
    expectTypeOf<TaskArgs>().toEqualTypeOf<{ agent_name: string; prompt: string; description: string; background?: boolean | undefined; task_id?: string | undefined }>();
    expectTypeOf<MultitaskArgs>().toEqualTypeOf<{ tasks: { index?: number; agent_name: string; prompt: string; description: string }[] }>();
    expectTypeOf<GenerateArgs['tools']>().toEqualTypeOf<string[] | undefined>();
  });
});
