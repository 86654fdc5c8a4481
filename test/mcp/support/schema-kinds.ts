/**
 * The three input schemas calls cannot wholly be checked against, one tool each, as both the
 * schema-kinds server lists them and the tools tests hand them to the user's own paths: a
 * `pattern` RE2 cannot run, a schema ajv refuses, and one too much work to compile.
 *
 * @module
 */

/** A lookahead: RE2 cannot run it, so the pattern is not enforced. */
export const LOOKAHEAD_SCHEMA = { type: 'object', properties: { name: { type: 'string', pattern: '^(?!tmp)' } } };

/** A type JSON schema has not: ajv refuses to compile it. */
export const INVALID_SCHEMA = { type: 'object', properties: { a: { type: 'no-such-type' } } };

/** An `anyOf` of 65 branches, one more than is compiled (`costlySchema`). */
export const COSTLY_SCHEMA = { type: 'object', properties: { v: { anyOf: Array.from({ length: 65 }, (_, i) => ({ const: i })) } } };

/** The tools, by name. */
export const SCHEMA_KINDS = { lookahead: LOOKAHEAD_SCHEMA, invalid: INVALID_SCHEMA, costly: COSTLY_SCHEMA } as const;
