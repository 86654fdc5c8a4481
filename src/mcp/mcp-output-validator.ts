import type { JsonSchemaValidator, jsonSchemaValidator as SdkSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { jsonSchemaValidator } from '../tools/json-schema-validator.js';

/**
 * What the MCP client checks a tool's structured output against its `outputSchema` with:
 * our validator (ajv with its regexes on RE2), not the SDK's default, whose regexes run on
 * JavaScript's backtracking engine, so a server's `pattern` like `^(a+)+$` and a result
 * made to match it badly would freeze the process; and its `uniqueItems` is checked in
 * linear time, where the SDK's ajv compares every pair of items (20,000 distinct objects held
 * the event loop 9 s). A schema that cannot be compiled checks
 * nothing (the output only becomes text the model reads).
 *
 * @example
 * ```ts
 * new sdk.Client(info, { jsonSchemaValidator: mcpOutputValidator });
 * ```
 */
export const mcpOutputValidator: SdkSchemaValidator = {
  getValidator<T>(schema: object): JsonSchemaValidator<T> {
    let validate: ReturnType<typeof jsonSchemaValidator>;
    try {
      validate = jsonSchemaValidator(schema);
    } catch {
      return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
    }
    return (input) => {
      const checked = validate(input);
      return checked.problems === undefined ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: checked.problems };
    };
  },
};
