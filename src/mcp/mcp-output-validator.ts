import type { JsonSchemaValidator, jsonSchemaValidator as SdkSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import type { JsonObject } from '../events/json.js';
import { jsonSchemaValidator } from '../tools/json-schema-validator.js';
import { oversizedSchema } from './mcp-tool-limits.js';
import { unusableRefs } from '../validation/schema-refs.js';

type Check = ReturnType<typeof jsonSchemaValidator>;

/**
 * What the MCP client checks a tool's structured output against its `outputSchema` with:
 * our validator (ajv with its regexes on RE2), not the SDK's default, whose regexes run on
 * JavaScript's backtracking engine, so a server's `pattern` like `^(a+)+$` and a result
 * made to match it badly would freeze the process; and its `uniqueItems` is checked in
 * linear time, where the SDK's ajv compares every pair of items (20,000 distinct objects held
 * the event loop 9 s). A schema that cannot be compiled, has a `$ref` that loops in place
 * or points at a URL (each answer's check overflowed the stack, failing every call), or has
 * `"$async": true` (its validator answered a Promise, read as valid, whose rejection ended
 * the process), checks nothing (the output only becomes text the model reads).
 *
 * A schema is compiled when the first result of its tool comes, not when the tools are
 * listed (the SDK asks for a validator per tool at each listing), and one over 64 KiB checks
 * nothing: compiling costs about 0.3 s per 20 KiB of schema, so a server listing a 500 KiB
 * output schema, or a thousand small ones, held the event loop for seconds at every listing.
 *
 * @example
 * ```ts
 * new sdk.Client(info, { jsonSchemaValidator: mcpOutputValidator });
 * ```
 */
export const mcpOutputValidator: SdkSchemaValidator = {
  getValidator<T>(schema: object): JsonSchemaValidator<T> {
    let check: Check | null | undefined;
    return (input) => {
      // Once: a schema that checks nothing (null) is not walked or compiled again at each result.
      if (check === undefined) check = compiled(schema);
      const problems = check === null ? undefined : check(input).problems;
      return problems === undefined ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: problems };
    };
  },
};

/** The schema's check; null when it checks nothing (too large, an unusable `$ref` or `$async`, or it does not compile). */
function compiled(schema: object): Check | null {
  // The size and depth first: they bound the walk of the refs.
  if (oversizedSchema(schema as JsonObject) !== undefined || unusableRefs(schema as JsonObject) !== undefined) return null;
  try {
    return jsonSchemaValidator(schema);
  } catch {
    return null;
  }
}
