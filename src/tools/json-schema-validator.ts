import type { ErrorObject } from 'ajv';
import { patternLengthLimit } from '../validation/linear-regexp.js';
import { refLoop } from '../validation/schema-refs.js';
import { compileSchema, type UnenforcedPattern } from '../validation/validator.js';
import { listProblems, quotedName, type ArgsValidator } from './args-validator.js';
import { jsonTextOf, knownSchemas, type CompiledArgsSchema } from './schema-verdicts.js';

export type { UnenforcedPattern } from '../validation/validator.js';

// The wording of tool-argument problems, over the one validator every schema goes through.
const compiledByObject = new WeakMap<object, CompiledArgsSchema>();

/**
 * The validator of a JSON schema, compiled on first use and kept while the schema object
 * lives, and by the schema's JSON text ({@link knownSchemas}): an equal schema in a new object
 * (a tools function's, at each run's start) gets the validator of the first, not compiled again.
 * A schema of plain JSON data is compiled from a copy made from that text, so the validator
 * holds none of the caller's objects: changing the object afterwards changes no validator.
 * Problems read like `"path" must be string` or `the arguments must have the
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
  return compiledArgs(schema).validate;
}

/**
 * The patterns of `schema` its validator does not enforce because RE2 cannot run them
 * (backreferences, lookaround), with RE2's reason; empty for most schemas. Compiles the
 * schema if it was not yet (nor one of the same JSON text).
 *
 * @throws Error when `schema` cannot be compiled (the reasons of {@link jsonSchemaValidator}).
 *
 * @example
 * ```ts
 * unenforcedPatterns({ type: 'string', pattern: '^(?!tmp)' }); // [{ pattern: '^(?!tmp)', reason: '... `(?!` ...' }]
 * ```
 */
export function unenforcedPatterns(schema: object): readonly UnenforcedPattern[] {
  return compiledArgs(schema).unenforced;
}

/** `schema` compiled: found by the object, else by its JSON text, else compiled and kept by both. */
function compiledArgs(schema: object): CompiledArgsSchema {
  let found = compiledByObject.get(schema);
  if (found !== undefined) return found;
  // Plain JSON data only: two such schemas of one text are read alike by ajv (see `jsonTextOf`).
  const text = jsonTextOf(schema);
  found = text === undefined ? undefined : knownSchemas.recall(text)?.compiled;
  if (found === undefined) {
    // ajv compiles a `$ref` that loops in place, then overflows the stack (some 300 ms) at
    // every check. Refused before compiling, in words that say which `$ref` (a hand-written
    // tool's call fails with them, cheaply). A URL's ajv refuses itself, fetching nothing.
    const why = refusedRefs(schema);
    if (why !== undefined) throw new Error(`the schema cannot be checked against: ${why}`);
    // Compiled from a private copy when the schema is plain JSON: ajv's validator keeps
    // references to values of the schema (`const`, an `enum`'s objects, a long `enum`), and
    // it serves every schema of this text; a caller changing its object afterwards must not
    // change what an equal schema elsewhere lets through.
    const { validate, unenforced } = compileSchema(withoutDialect(text === undefined ? schema : (JSON.parse(text) as object)));
    const check: ArgsValidator = (args) => {
      // Only `true` passes (fail closed): a validator answering anything else (a Promise, had
      // an asynchronous schema got through) has checked nothing.
      if (validate(args) === true) return { value: args as Record<string, unknown> };
      return { problems: validate.errors?.length ? listProblems(validate.errors.map(describe)) : 'the arguments could not be checked against the schema' };
    };
    found = { validate: check, unenforced };
    if (text !== undefined) knownSchemas.remember(text, { compiled: found });
  }
  compiledByObject.set(schema, found);
  return found;
}

/**
 * `schema` without its root `$schema`, which only names its dialect: ajv here would look the
 * name up and refuse one it has no meta-schema for (2020-12's, which MCP servers send). An MCP
 * tool's schema is compiled without it (`mcp-tool.ts`), and so is a Standard Schema's JSON side
 * (`tool-input.ts`): one rule, so a server's tool a tools function hands on is checked as the
 * engine's MCP tool for it is, not refused.
 */
function withoutDialect(schema: object): object {
  if (!Object.hasOwn(schema, '$schema')) return schema;
  const { $schema: _dialect, ...rest } = schema as Readonly<Record<string, unknown>>;
  return rest;
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
