import { Ajv, type ErrorObject } from 'ajv';
import type { ArgsValidator } from './args-validator.js';

const ajv = new Ajv({ allErrors: true, strict: false });

// One validator per schema object: tools built from shared schema constants (every child's
// copy of `task`, say) compile once. Ajv's own cache holds every schema it compiled for
// good; each is removed from it after compiling, so a schema nobody uses any more (the tools
// of an engine that is gone) can be collected with its validator.
const validators = new WeakMap<object, ArgsValidator>();

/**
 * The validator of a JSON schema, compiled on first use and kept while the schema object
 * lives. Problems read like `"path" must be string` or `the arguments must have the
 * property "path"`, joined by `; `.
 *
 * @throws Error when `schema` is not a valid JSON schema (ajv's message).
 *
 * @example
 * ```ts
 * jsonSchemaValidator({ type: 'object', required: ['path'] })({}); // { problems: 'the arguments must have the property "path"' }
 * ```
 */
export function jsonSchemaValidator(schema: object): ArgsValidator {
  let validator = validators.get(schema);
  if (validator === undefined) {
    const validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    validator = (args) => (validate(args) ? { value: args as Record<string, unknown> } : { problems: (validate.errors ?? []).map(describe).join('; ') });
    validators.set(schema, validator);
  }
  return validator;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `"${e.instancePath.slice(1).replaceAll('/', '.')}"` : 'the arguments';
  if (e.keyword === 'additionalProperties') {
    return `${where} has an unknown property "${String(e.params.additionalProperty)}"`;
  }
  if (e.keyword === 'required') return `${where} must have the property "${String(e.params.missingProperty)}"`;
  return `${where} ${e.message ?? 'is invalid'}`;
}
