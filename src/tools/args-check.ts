import type { ArgsCheck, ArgsValidator } from './args-validator.js';
import { jsonSchemaValidator } from './json-schema-validator.js';
import type { Tool } from './tool.js';

export type { ArgsCheck, ArgsValidator } from './args-validator.js';

// A registered symbol, so a tool made by another copy of the package still brings its own
// validator; enumerable, so a tool copied with `{ ...tool }` keeps it.
const VALIDATE = Symbol.for('rxharness.tool.validate');

/**
 * Gives a tool its own argument validator (`defineTool` does, from its `input` schema).
 *
 * @example
 * ```ts
 * const tool = withValidator({ name, description, parameters, execute }, (args) => ({ value: args as Record<string, unknown> }));
 * ```
 */
export function withValidator<T extends object>(tool: T, validate: ArgsValidator): T {
  return Object.assign(tool, { [VALIDATE]: validate });
}

/**
 * Checks a call's parsed arguments against its tool: with the tool's own validator when it
 * has one (a `defineTool` tool), else with ajv against `parameters` (a hand-written `Tool`).
 *
 * @example
 * ```ts
 * const checked = checkToolArguments(tool, { path: 3 });
 * checked.problems; // '"path" must be string'
 * ```
 */
export function checkToolArguments(tool: Tool, args: unknown): ArgsCheck {
  const own = (tool as { readonly [VALIDATE]?: ArgsValidator })[VALIDATE];
  return typeof own === 'function' ? own(args) : jsonSchemaValidator(tool.parameters)(args);
}
