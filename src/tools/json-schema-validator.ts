import { Ajv, type ErrorObject } from 'ajv';
import type { ArgsValidator } from './args-validator.js';
import { linearRegExpEngine } from './linear-regexp.js';

/** A `pattern` (or `patternProperties` key) of a schema that is not enforced, and why. */
export interface UnenforcedPattern {
  readonly pattern: string;
  /** Why the linear-time engine cannot run it (RE2's words: a lookahead, a backreference...). */
  readonly reason: string;
}

// The patterns RE2 refused while the current schema compiled (ajv compiles synchronously).
let refused: UnenforcedPattern[] = [];
const newAjv = (): Ajv =>
  new Ajv({
    allErrors: true,
    strict: false,
    code: { regExp: linearRegExpEngine((pattern, reason) => refused.push({ pattern, reason })) },
  });
// Ajv keeps every pattern it compiled in its scope for good (removeSchema does not drop
// them), and MCP servers list schemas again and again: a fresh instance every so often lets
// the old patterns go with the validators that use them.
const SCHEMAS_PER_AJV = 500;
let ajv = newAjv();
let compiledByAjv = 0;

interface Compiled {
  readonly validate: ArgsValidator;
  readonly unenforced: readonly UnenforcedPattern[];
}

// One validator per schema object: tools built from shared schema constants (every child's
// copy of `task`, say) compile once. Ajv's own cache holds every schema it compiled for
// good; each is removed from it after compiling, so a schema nobody uses any more (the tools
// of an engine that is gone) can be collected with its validator.
const compiled = new WeakMap<object, Compiled>();

/**
 * The validator of a JSON schema, compiled on first use and kept while the schema object
 * lives. Problems read like `"path" must be string` or `the arguments must have the
 * property "path"`, joined by `; `.
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
  return compile(schema).validate;
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
  return compile(schema).unenforced;
}

function compile(schema: object): Compiled {
  let found = compiled.get(schema);
  if (found === undefined) {
    refused = [];
    if (++compiledByAjv > SCHEMAS_PER_AJV) {
      ajv = newAjv();
      compiledByAjv = 1;
    }
    try {
      const validate = ajv.compile(schema);
      ajv.removeSchema(schema);
      found = {
        validate: (args) => (validate(args) ? { value: args as Record<string, unknown> } : { problems: (validate.errors ?? []).map(describe).join('; ') }),
        unenforced: Object.freeze(refused),
      };
    } finally {
      refused = [];
    }
    compiled.set(schema, found);
  }
  return found;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `"${e.instancePath.slice(1).replaceAll('/', '.')}"` : 'the arguments';
  if (e.keyword === 'additionalProperties') {
    return `${where} has an unknown property "${String(e.params.additionalProperty)}"`;
  }
  if (e.keyword === 'required') return `${where} must have the property "${String(e.params.missingProperty)}"`;
  return `${where} ${e.message ?? 'is invalid'}`;
}
