import type { ObservableInput } from 'rxjs';
import type { JsonObject } from '../events/json.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { withValidator } from './args-check.js';
import type { Tool, ToolContext, ToolResult } from './tool.js';
import { toolSchemaOf, type InferToolArgs, type UsableToolInput } from './tool-input.js';

/**
 * What {@link defineTool} makes a tool from. `description` and `modelParameters` may be
 * getters: the tool reads them again at every step (the delegation tools list the agents
 * that exist now).
 */
export interface ToolDefinition<S extends object, Args extends Record<string, unknown> = InferToolArgs<S>> {
  /** The tool's name, as the model calls it and as permission rules and definitions name it. */
  readonly name: string;
  /** What the tool does and when to use it; the model reads this. */
  readonly description: string;
  /**
   * The arguments' schema: a Standard Schema with a JSON side (zod 4, valibot through
   * `toStandardJsonSchema`, arktype), which validates the arguments itself (its output,
   * transforms applied, is what `execute` gets); or a JSON schema object (a TypeBox schema is
   * one), validated by ajv. Either way it must describe an object.
   */
  readonly input: S & UsableToolInput<S>;
  /** A schema to offer the model instead of the one derived from `input` (see {@link Tool.modelParameters}). */
  readonly modelParameters?: JsonObject;
  /**
   * How long one call may run, in milliseconds; overrides the agent's `toolTimeoutMs`. An
   * integer from 1 to 2,147,483,647 (about 24.8 days, the longest a timer holds), or `Infinity`
   * for a tool bounded by other means.
   */
  readonly timeoutMs?: number;
  /** The argument permission patterns match against: a command, a path, a url. */
  subject?(args: Args): string | undefined;
  /** The workspace paths the call would touch; each is checked to stay inside the workspace. */
  paths?(args: Args): readonly string[];
  /** Runs the call with validated arguments. Return text, a {@link ToolResult}, or a promise or observable of one. */
  execute(args: Args, context: ToolContext): ToolResult | string | ObservableInput<ToolResult | string>;
}

/**
 * Makes a {@link Tool} from a schema written once: the model is offered the JSON schema
 * derived from `input`, each call's arguments are checked against `input` before anything
 * runs (a mismatch is a failed call the model reads, like `"path" must be string`), and
 * `execute`'s argument type is inferred from it. The schema is read, and a JSON schema
 * compiled, once per schema object, not per call.
 *
 * @throws RangeError naming the tool when `timeoutMs` is neither `Infinity` nor an integer from
 * 1 to `MAX_TIMER_MS` (Node would fire a longer timer after 1 ms).
 * @throws TypeError naming the tool when `input` is not an object schema, or cannot give the
 * model a JSON schema (a valibot schema needs `toStandardJsonSchema`), or is a JSON schema
 * with a `pattern` RE2 cannot run (its regexes run in linear time; lookaround and
 * backreferences are refused), or with a `$ref` that comes back to itself without going into
 * a property or an item (`{ "$ref": "#" }`: checking a value never ends), or one ajv cannot
 * resolve (a URL: nothing is fetched), or whose checking would double at every level of a
 * value or at every link of a chain of `$defs` (`checkingCost`, as for an MCP tool's schema).
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 *
 * const weather = defineTool({
 *   name: 'weather',
 *   description: 'The weather in a city.',
 *   input: z.object({ city: z.string().min(1), unit: z.enum(['C', 'F']).default('C') }),
 *   execute: ({ city, unit }) => `Sunny in ${city}, 21°${unit}`, // city: string, unit: 'C' | 'F'
 * });
 * ```
 */
export function defineTool<const S extends object>(definition: ToolDefinition<S>): Tool<InferToolArgs<S>> {
  type Args = InferToolArgs<S>;
  const name: unknown = definition?.name;
  if (typeof name !== 'string' || name === '') throw new TypeError(`defineTool: \`name\` must be a non-empty string, got ${JSON.stringify(name)}`);
  if (typeof definition.execute !== 'function') throw new TypeError(`defineTool("${name}"): \`execute\` must be a function`);
  const timeoutMs: unknown = definition.timeoutMs;
  if (timeoutMs !== undefined && timeoutMs !== Number.POSITIVE_INFINITY && !(Number.isInteger(timeoutMs) && (timeoutMs as number) >= 1 && (timeoutMs as number) <= MAX_TIMER_MS)) {
    throw new RangeError(`defineTool("${name}"): \`timeoutMs\` must be an integer of milliseconds from 1 to ${MAX_TIMER_MS} (the longest a timer holds, about 24.8 days) or Infinity, got ${String(timeoutMs)}`);
  }
  const { parameters, validate } = toolSchemaOf(name, definition.input);
  const tool: Tool<Args> = {
    name,
    get description() {
      return definition.description;
    },
    parameters,
    ...(definition.timeoutMs === undefined ? {} : { timeoutMs: definition.timeoutMs }),
    ...(definition.subject ? { subject: (args: Args) => definition.subject!(args) } : {}),
    ...(definition.paths ? { paths: (args: Args) => definition.paths!(args) } : {}),
    execute: (args, context) => definition.execute(args, context),
  };
  if ('modelParameters' in definition) {
    // A getter, so a definition's own getter is read at every step, not once here.
    Object.defineProperty(tool, 'modelParameters', { get: () => definition.modelParameters, enumerable: true });
  }
  return withValidator(tool, validate);
}
