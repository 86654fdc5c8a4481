import type { ErrorObject } from 'ajv';
import { patternLengthLimit } from '../validation/linear-regexp.js';
import { refLoop } from '../validation/schema-refs.js';
import { compileSchema, type UnenforcedPattern } from '../validation/validator.js';
import { listProblems, quotedName, type ArgsValidator } from './args-validator.js';

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
 * @throws Error when `schema` is not a valid JSON schema (ajv's message: a `$ref` to a URL is
 * one, nothing is fetched), has a `$ref` that loops in place (`refLoop`), or is asynchronous
 * (`"$async": true`, see `compileSchema`).
 *
 * @example
 * ```ts
 * jsonSchemaValidator({ type: 'object', required: ['path'] })({}); // { problems: 'the arguments must have the property "path"' }
 * ```
 */
export function jsonSchemaValidator(schema: object): ArgsValidator {
  let found = validators.get(schema);
  if (found === undefined) {
    // ajv compiles a `$ref` that loops in place, then overflows the stack (some 300 ms) at
    // every check. Refused before compiling, in words that say which `$ref` (a hand-written
    // tool's call fails with them, cheaply). A URL's ajv refuses itself, fetching nothing.
    const why = refusedRefs(schema);
    if (why !== undefined) throw new Error(`the schema cannot be checked against: ${why}`);
    const { validate } = compileSchema(schema);
    found = (args) => {
      // Only `true` passes (fail closed): a validator answering anything else (a Promise, had
      // an asynchronous schema got through) has checked nothing.
      if (validate(args) === true) return { value: args as Record<string, unknown> };
      return { problems: validate.errors?.length ? listProblems(validate.errors.map(describe)) : 'the arguments could not be checked against the schema' };
    };
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

// Why a schema's `$ref`s were refused, kept while the schema object lives: a hand-written
// tool's bad schema is looked at once, not walked again at each of its calls.
const refused = new WeakMap<object, string>();

function refusedRefs(schema: object): string | undefined {
  let why = refused.get(schema);
  if (why === undefined) {
    why = refLoop(schema as Readonly<Record<string, unknown>>);
    if (why !== undefined) refused.set(schema, why);
  }
  return why;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? quotedName(e.instancePath.slice(1).replaceAll('/', '.')) : 'the arguments';
  if (e.keyword === 'additionalProperties') {
    return `${where} has an unknown property ${quotedName(String(e.params.additionalProperty))}`;
  }
  if (e.keyword === 'required') return `${where} must have the property ${quotedName(String(e.params.missingProperty))}`;
  const limit = e.keyword === 'pattern' && typeof e.data === 'string' ? patternLengthLimit(String(e.params.pattern)) : Infinity;
  if (typeof e.data === 'string' && e.data.length > limit) {
    return `${where} is ${e.data.length} characters long, too long to be checked against the pattern ${JSON.stringify(String(e.params.pattern))}: at most ${limit}`;
  }
  return `${where} ${e.message ?? 'is invalid'}`;
}
