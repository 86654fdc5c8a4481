import { Ajv, type ValidateFunction } from 'ajv';
import { linearRegExpEngine } from './linear-regexp.js';
import { LINEAR_UNIQUE_ITEMS } from './linear-unique-items.js';

/** A `pattern` (or `patternProperties` key) of a schema that is not enforced, and why. */
export interface UnenforcedPattern {
  readonly pattern: string;
  /** Why the linear-time engine cannot run it (RE2's words: a lookahead, a backreference...). */
  readonly reason: string;
}

/** A schema compiled by the one validator, and the patterns of it RE2 could not run. */
export interface CompiledSchema {
  /** ajv's validator: on `false`, its `errors` say why (with the schema and data of each, `verbose`). */
  readonly validate: ValidateFunction;
  readonly unenforced: readonly UnenforcedPattern[];
}

// The patterns RE2 refused while the current schema compiled (ajv compiles synchronously).
let refused: UnenforcedPattern[] = [];

// One configuration for every schema we check: tool arguments (ours, a user's, an MCP
// server's), engine options, permission rules, definitions' front matter.
const newAjv = (): Ajv => {
  const ajv = new Ajv({
    // Every problem, each with the schema and the data it is about, for the messages.
    allErrors: true,
    verbose: true,
    strict: false,
    // Infinity and NaN are not numbers (JSON cannot hold them; a configuration can).
    strictNumbers: true,
    // Regexes on RE2: a schema may come from outside, and `^(a+)+$` must not freeze the process.
    code: { regExp: linearRegExpEngine((pattern, reason) => refused.push({ pattern, reason })) },
  });
  // `uniqueItems` in linear time: ajv's compares every pair of items, and a schema (and the
  // data) may come from outside. Redefined in place rather than stripped from schemas, so no
  // schema is copied or rewritten and the keyword is checked wherever ajv meets it.
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(LINEAR_UNIQUE_ITEMS);
  // Configuration holds more than JSON: `jsKind` checks a function, or an object with that method.
  ajv.addKeyword({
    keyword: 'jsKind',
    schemaType: 'string',
    validate: (kind: string, data: unknown) =>
      kind === 'function' ? typeof data === 'function' : typeof (data as Record<string, unknown> | null)?.[kind] === 'function',
  });
  // The one format we check (others are left alone): a URL an HTTP client can fetch.
  ajv.addFormat('http-url', (text: string) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol));
  return ajv;
};

// Ajv keeps every pattern it compiled in its scope for good (removeSchema does not drop
// them), and MCP servers list schemas again and again: a fresh instance every so often lets
// the old patterns go with the validators that use them.
const SCHEMAS_PER_AJV = 500;
let ajv: Ajv | undefined;
let compiledByAjv = 0;

// Why a schema with `"$async": true` is refused: the one validator checks synchronously.
const ASYNC_REFUSED = 'the schema has "$async": true, and asynchronous schemas are not supported here (values are checked synchronously); leave "$async" out';

// One validator per schema object: tools built from shared schema constants (every child's
// copy of `task`, say) compile once. Each schema is removed from ajv's own cache after
// compiling, so one nobody uses any more can be collected with its validator.
const compiled = new WeakMap<object, CompiledSchema>();

/**
 * The one validator: `schema` compiled by the shared, configured ajv (made on first use),
 * kept while the schema object lives. Its regexes run on RE2 (linear time); one RE2 cannot
 * run is not enforced and is listed in `unenforced`. `uniqueItems` is checked in linear time
 * too (a canonical key per item, see `firstDuplicate`), not by comparing every pair: a schema
 * from outside (an MCP server's) and a long list must not freeze the process. Beyond JSON schema it knows `jsKind`:
 * `'function'`, or the name of a method the value must have (`{ jsKind: 'stream' }`).
 * Of `format`s it checks only `http-url` (an http or https URL); others are ignored.
 *
 * @throws Error when `schema` is not a valid JSON schema (ajv's message), or is asynchronous
 * (`"$async": true`: its validator would answer a Promise, not `true` or `false`).
 *
 * @example
 * ```ts
 * const { validate } = compileSchema({ type: 'integer', minimum: 1 });
 * validate(0); // false; validate.errors[0].keyword === 'minimum'
 * ```
 */
export function compileSchema(schema: object): CompiledSchema {
  let found = compiled.get(schema);
  if (found !== undefined) return found;
  if (ajv === undefined || ++compiledByAjv > SCHEMAS_PER_AJV) {
    ajv = newAjv();
    compiledByAjv = 1;
  }
  const instance = ajv;
  refused = [];
  try {
    const validate = instance.compile(schema);
    // ajv knows `$async`: its validator then answers a Promise, which every caller would read
    // as "valid", and which rejects (unhandled: the process exits) when the data does not fit.
    if ((validate as { readonly $async?: unknown }).$async) throw new Error(ASYNC_REFUSED);
    found = { validate, unenforced: Object.freeze(refused) };
  } finally {
    refused = [];
    // ajv registers a root `$id` before it checks the schema: a schema it refuses would keep
    // its `$id` taken ("already exists") for every later schema of this instance.
    forget(instance, schema);
  }
  compiled.set(schema, found);
  return found;
}

/** Drops `schema` (and its root `$id`) from ajv's cache; an `$id` ajv cannot parse must not hide the real error. */
function forget(instance: Ajv, schema: object): void {
  try {
    instance.removeSchema(schema);
  } catch {
    // Nothing was registered under an id ajv cannot read.
  }
}

/**
 * Why `schema` is not a valid JSON schema by its meta-schema (ajv's words, each place named
 * from `schema`: `schema/properties/a/type must be equal to one of the allowed values`), or
 * `undefined` when it is. Checks the schema as data, without compiling it: some 6 ms for
 * 90 KiB where compiling took 2 s, so a schema from outside (an MCP server's, `mcp-tool.ts`)
 * can be judged when it is listed. What compiling finds beyond that (a `$ref` it cannot
 * resolve) is found at compiling only.
 *
 * @example
 * ```ts
 * metaSchemaProblem({ type: 'nope' }); // 'schema/type must be equal to one of the allowed values, ...'
 * ```
 */
export function metaSchemaProblem(schema: object): string | undefined {
  ajv ??= newAjv();
  let valid: unknown;
  try {
    valid = ajv.validateSchema(schema);
  } catch (e) {
    // A `$schema` ajv has no meta-schema for: ajv says which.
    return e instanceof Error ? e.message : String(e);
  }
  return valid === true ? undefined : ajv.errorsText(ajv.errors, { dataVar: 'schema' });
}
