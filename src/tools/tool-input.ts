import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Static, TSchema } from 'typebox';
import type { JsonObject } from '../events/json.js';
import { errorMessage } from '../errors/error-message.js';
import type { ArgsCheck, ArgsValidator } from './args-validator.js';
import { jsonSchemaValidator, unenforcedPatterns } from './json-schema-validator.js';
import { describeIssues } from './standard-issues.js';
import { checkingCost, refLoop } from '../validation/schema-refs.js';
import { costlySchema } from '../validation/schema-cost.js';
import { MAX_PATTERN_LENGTH, MAX_PATTERN_SIZE } from '../validation/linear-regexp.js';
import { regExpSize } from '../validation/regexp-size.js';
import type { Tool } from './tool.js';
import { jsonTextOf, knownSchemas } from './schema-verdicts.js';
import { schemaVerdict, type SchemaFinding } from './schema-policy.js';

/**
 * A Standard Schema that can also describe itself as a JSON schema
 * ([Standard JSON Schema](https://standardschema.dev)): a zod 4 schema, a valibot schema
 * wrapped in `toStandardJsonSchema`, an arktype type.
 */
export interface StandardToolSchema<Input = unknown, Output = Input> {
  /** The Standard Schema properties, with the JSON Schema converter. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

/**
 * The arguments `execute` receives for an `input` schema: a Standard Schema's output type,
 * TypeBox's `Static` for a TypeBox schema (or a JSON schema literal it can read), else
 * `Record<string, unknown>` (a JSON schema whose type is not known at compile time).
 */
export type InferToolArgs<S> =
  S extends StandardSchemaV1<unknown, infer Output>
    ? Output extends Record<string, unknown>
      ? Output
      : never // the arguments are a JSON object; a schema of anything else is refused
    : Static<S & object> extends infer Read
      ? 0 extends 1 & Read // `any`: TypeBox could not read it
        ? Record<string, unknown>
        : Read extends Record<string, unknown>
          ? Read
          : Record<string, unknown>
      : never;

/**
 * `unknown` for an `input` `defineTool` can use; for a Standard Schema without a JSON side
 * (a bare valibot schema), {@link JsonSchemaSideMissing}, so the mistake is a compile error
 * that says what to do rather than a throw at run time.
 */
export type UsableToolInput<S> = S extends StandardSchemaV1 ? (S extends StandardJSONSchemaV1 ? unknown : JsonSchemaSideMissing) : unknown;

/** What a Standard Schema without a JSON side lacks to be a tool's `input` (see {@link UsableToolInput}). */
export interface JsonSchemaSideMissing {
  /** The Standard properties: they need a JSON Schema converter, because the model needs a JSON schema. */
  readonly '~standard': {
    /** Add it by wrapping the schema, e.g. `toStandardJsonSchema(schema)` from `@valibot/to-json-schema`. */
    readonly jsonSchema: 'a JSON Schema side: wrap the schema, e.g. toStandardJsonSchema(schema) from @valibot/to-json-schema';
  };
}

/**
 * A JSON schema as the JSON object it is: a literal (ours are, so TypeBox is never loaded at
 * run time), or a TypeBox schema a user built, whose own enumerable keys are plain JSON
 * (TypeBox's markers are non-enumerable), so it can be sent to the model as it is.
 *
 * @example
 * ```ts
 * const parameters: JsonObject = jsonOf(Type.Object({ path: Type.String() }));
 * ```
 */
export function jsonOf(schema: TSchema): JsonObject {
  return schema as JsonObject;
}

/** What a tool checks its arguments with, and the JSON schema the model is offered. */
export interface ToolSchema {
  readonly parameters: JsonObject;
  readonly validate: ArgsValidator;
}

/**
 * Reads a tool's `input`: a Standard Schema with a JSON side (validated by itself, its JSON
 * schema derived once) or a JSON schema object (validated by ajv, compiled once per object).
 *
 * @throws TypeError naming the tool when `input` is neither, cannot say itself as JSON
 * schema, or does not describe an object, or is a JSON schema with a `pattern` the
 * linear-time regex engine cannot run (lookaround, backreferences), with a `$ref` that
 * loops in place (`refLoop`), that is too much work to compile (`costlySchema`: more than 64
 * branches of an `anyOf`, 2,000 subschemas, 500 regexes), or whose checking would double at
 * every level of a value or link of a chain of `$defs` (`checkingCost`): what the one schema
 * policy (`schemaVerdict`, `'user-code'`) refuses. A JSON schema is checked once per object (and per JSON text).
 *
 * @example
 * ```ts
 * const { parameters, validate } = toolSchemaOf('clock', z.object({ zone: z.string() }));
 * ```
 */
export function toolSchemaOf(name: string, input: unknown): ToolSchema {
  const fail = (problem: string): never => {
    throw new TypeError(`defineTool("${name}"): ${problem}`);
  };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail(`\`input\` must be a Standard Schema (zod, valibot, arktype...) or a JSON schema object, got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}`);
  }
  const standard = (input as { readonly '~standard'?: unknown })['~standard'];
  const parameters = standard === undefined ? (input as JsonObject) : derivedSchema(standard as Partial<StandardToolSchema['~standard']>, fail);
  if (parameters.type !== 'object') {
    fail(`\`input\` must describe an object (a tool's arguments are a JSON object), but its JSON schema has type ${JSON.stringify(parameters.type)}`);
  }
  if (standard !== undefined) {
    // Its calls are checked by its own Standard Schema; the JSON side is only shown to the model.
    settled.add(parameters);
    return { parameters, validate: standardValidator(standard as StandardToolSchema['~standard']) };
  }
  return { parameters, validate: checkedJsonSchema(parameters, '`input`', fail) };
}

/**
 * Gives a tool built by hand (a `Tool` object, not `defineTool`'s) the checks `defineTool`
 * gives a JSON schema `input`, when a tool is registered (`HarnessEngine`'s `tools`): its
 * `parameters` are what its calls are checked against. Once per schema object, and once per
 * JSON text (an equal schema in a new object, as a tools function may answer at each run's
 * start, gets the verdict again without being compiled); a `defineTool` tool's schema is not
 * looked at again.
 *
 * @throws TypeError naming `who` and the tool when its `parameters` cannot be checked
 * against (the reasons of {@link toolSchemaOf}, in the same words).
 *
 * @example
 * ```ts
 * assertCheckableParameters('HarnessEngine', { name: 'clock', description: 'Now', parameters: { type: 'object' }, execute: () => 'noon' });
 * ```
 */
export function assertCheckableParameters(who: string, tool: Pick<Tool, 'name' | 'parameters'>): void {
  const fail = (problem: string): never => {
    throw new TypeError(`${who}: the tool "${tool.name}": ${problem}`);
  };
  const parameters: unknown = tool.parameters;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) fail('`parameters` must be a JSON schema object');
  assertCheckable(tool.parameters, '`parameters`', fail);
}

/**
 * The validator of a JSON schema calls are checked against, once the schema passed the checks
 * (the same for a `defineTool` `input` and a hand-written tool's `parameters`: `what` names
 * which in the messages); `fail` throws with the first problem.
 */
function checkedJsonSchema(schema: JsonObject, what: string, fail: (problem: string) => never): ArgsValidator {
  assertCheckable(schema, what, fail);
  return jsonSchemaValidator(schema);
}

/**
 * Checks `schema` once per object, and once per JSON text (`knownSchemas`): an equal schema in
 * a new object (a tools function's, at each run's start) gets the first one's verdict, and at
 * its tool's first call the first one's validator (`jsonSchemaValidator`), compiled once.
 */
function assertCheckable(schema: JsonObject, what: string, fail: (problem: string) => never): void {
  if (settled.has(schema)) return;
  const text = jsonTextOf(schema);
  let checked = text === undefined ? undefined : knownSchemas.recall(text)?.checked;
  if (checked === undefined) {
    const found = schemaProblem(schema);
    // The one policy decides (`schema-policy.ts`): the user's own schema is refused where it is written.
    checked = found !== undefined && schemaVerdict('user-code', found.finding).action === 'refuse' ? { problem: found.problem } : {};
    if (text !== undefined) knownSchemas.remember(text, { checked });
  }
  if (checked.problem !== undefined) fail(`${what} ${checked.problem}`);
  settled.add(schema);
}

/** What is wrong with `schema` for the schema policy, and the words saying it (after those naming it). */
interface SchemaProblem {
  readonly finding: SchemaFinding;
  readonly problem: string;
}

/** The first thing that keeps calls from being wholly checked against `schema`, or `undefined`. */
function schemaProblem(schema: JsonObject): SchemaProblem | undefined {
  // Found here, where the author can mend it, not at each call: ajv would overflow the
  // stack (some 300 ms) checking every call against a `$ref` that loops in place. (A `$ref`
  // to a URL ajv refuses below, fetching nothing; one by `$id`, as TypeBox's, it resolves.)
  const loop = refLoop(schema);
  if (loop !== undefined) return { finding: 'uncheckable', problem: `cannot be checked against: ${loop}. Let a schema recur only through a property or an item.` };
  // Before compiling, which is the cost: ajv holds the event loop (100 refs to a 100-branch
  // `$def`, 19 s), as for an MCP tool's schema.
  const costly = costlySchema(schema);
  if (costly !== undefined) return { finding: 'uncheckable', problem: `cannot be checked against: ${costly}` };
  try {
    jsonSchemaValidator(schema);
  } catch (e) {
    return { finding: 'invalid', problem: `is not a valid JSON schema: ${errorMessage(e)}` };
  }
  // Its regexes run on RE2 (linear time); one it cannot run would go unchecked.
  const [unenforced] = unenforcedPatterns(schema);
  if (unenforced) {
    const problem = `has the pattern ${JSON.stringify(unenforced.pattern)}, which the linear-time regex engine (RE2) cannot run (${unenforced.reason}). ${patternAdvice(unenforced.pattern)}`;
    return { finding: 'unenforced-pattern', problem };
  }
  // Checking would double at each level of a value or link of a chain of `$defs` (the check an
  // MCP tool's schema gets).
  const why = checkingCost(schema);
  return why === undefined ? undefined : { finding: 'uncheckable', problem: `would take too long to check calls against: ${why}` };
}

/**
 * Schemas whose checking of calls is settled: JSON schemas that passed `checkedJsonSchema`,
 * and the JSON sides of Standard Schemas (their own validators check calls). Not looked at
 * again: the built-in and delegation tools are defined again for every engine and child
 * agent, from the same objects.
 */
const settled = new WeakSet<object>();

/** How to mend a pattern RE2 refused: one over the size bounds is too large, not written with what RE2 lacks. */
function patternAdvice(pattern: string): string {
  const tooLarge = pattern.length > MAX_PATTERN_LENGTH || regExpSize(pattern, MAX_PATTERN_SIZE) > MAX_PATTERN_SIZE;
  if (tooLarge) return 'Make it smaller: bound the length with maxLength (not a counted repeat such as {1,5000}), simplify the pattern, or check that in `execute`.';
  return 'Rewrite it without lookahead, lookbehind or backreferences, or check that in `execute`.';
}

function derivedSchema(standard: Partial<StandardToolSchema['~standard']>, fail: (problem: string) => never): JsonObject {
  const vendor = String(standard.vendor ?? 'unknown');
  if (typeof standard.validate !== 'function') fail(`\`input\` (${vendor}) has no \`~standard.validate\`: it is not a Standard Schema`);
  if (typeof standard.jsonSchema?.input !== 'function') {
    const hint = vendor === 'valibot' ? ' Wrap it: toStandardJsonSchema(schema) from @valibot/to-json-schema.' : '';
    return fail(`\`input\` (${vendor}) cannot describe itself as a JSON schema (no \`~standard.jsonSchema\`), and the model needs one.${hint} Or pass a JSON schema.`);
  }
  let schema: Record<string, unknown>;
  try {
    schema = standard.jsonSchema.input({ target: 'draft-2020-12' });
  } catch (e) {
    return fail(`could not derive a JSON schema from \`input\` (${vendor}): ${errorMessage(e)}`);
  }
  // `$schema` says nothing the model uses, and it would be sent again at every step.
  const { $schema: _dialect, ...rest } = schema;
  return rest as JsonObject;
}

function standardValidator(standard: StandardSchemaV1.Props): ArgsValidator {
  const vendor = standard.vendor;
  return (args): ArgsCheck => {
    let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
    try {
      result = standard.validate(args);
    } catch (e) {
      return { problems: `its ${vendor} schema failed while checking them (${errorMessage(e)})` };
    }
    if (isThenable(result)) {
      result.then(undefined, () => undefined); // nobody awaits it
      // zod also answers a promise when a check throws (it retries asynchronously).
      return { problems: `its ${vendor} schema answered with a promise (an async refinement, or a check that threw?), which a tool's input cannot wait for; make its checks synchronous` };
    }
    // The spec: a falsy `issues` means success (valibot leaves it out, others set undefined).
    if (result.issues) return { problems: describeIssues(result.issues, args) };
    return { value: result.value as Record<string, unknown> };
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { readonly then?: unknown } | null)?.then === 'function';
}
