import type { ErrorObject } from 'ajv';
import { compileSchema, type UnenforcedPattern } from '../validation/validator.js';
import { listProblems, type ArgsValidator } from './args-validator.js';

export type { UnenforcedPattern } from '../validation/validator.js';

// The wording of tool-argument problems, over the one validator every schema goes through.
const validators = new WeakMap<object, ArgsValidator>();

/**
 * The validator of a JSON schema, compiled on first use and kept while the schema object
 * lives. Problems read like `"path" must be string` or `the arguments must have the
 * property "path"`, joined by `; ` (the first ten, then how many more).
 *
 * Its regexes (`pattern`, `patternProperties`) run on a linear-time engine (RE2), since a
 * schema may come from outside (an MCP server, a user tool); one RE2 cannot run is not
 * enforced (see {@link unenforcedPatterns}). `format` is not checked.
 *
 * @throws Error when `schema` is not a valid JSON schema (ajv's message).
 *
 * @example
 * ```ts
 * jsonSchemaValidator({ type: 'object', required: ['path'] })({}); // { problems: 'the arguments must have the property "path"' }
 * ```
 */
export function jsonSchemaValidator(schema: object): ArgsValidator {
  let found = validators.get(schema);
  if (found === undefined) {
    const { validate } = compileSchema(schema);
    found = (args) => (validate(args) ? { value: args as Record<string, unknown> } : { problems: listProblems((validate.errors ?? []).map(describe)) });
    validators.set(schema, found);
  }
  return found;
}

/**
 * The patterns of `schema` its validator does not enforce because RE2 cannot run them
 * (backreferences, lookaround), with RE2's reason; empty for most schemas. Compiles the
 * schema if it was not yet.
 *
 * @throws Error when `schema` is not a valid JSON schema (ajv's message).
 *
 * @example
 * ```ts
 * unenforcedPatterns({ type: 'string', pattern: '^(?!tmp)' }); // [{ pattern: '^(?!tmp)', reason: '... `(?!` ...' }]
 * ```
 */
export function unenforcedPatterns(schema: object): readonly UnenforcedPattern[] {
  return compileSchema(schema).unenforced;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `"${e.instancePath.slice(1).replaceAll('/', '.')}"` : 'the arguments';
  if (e.keyword === 'additionalProperties') {
    return `${where} has an unknown property "${String(e.params.additionalProperty)}"`;
  }
  if (e.keyword === 'required') return `${where} must have the property "${String(e.params.missingProperty)}"`;
  return `${where} ${e.message ?? 'is invalid'}`;
}
