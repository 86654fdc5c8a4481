/**
 * The one policy for a tool's input schema that calls cannot be wholly checked against: what
 * becomes of its tool, decided in one place for an MCP server's tools (`mcp-tool.ts`) and for
 * the user's own (`tool-input.ts`: `defineTool`, a hand-written `Tool` given to `HarnessEngine`,
 * a `ReActAgent`'s tools or tools function, `engine.start`'s tools).
 *
 * @module
 */

/**
 * Whose schema it is. `'mcp-server'`: an MCP server's listing, outside code that may be
 * hostile, and that checks its own arguments. `'user-code'`: the user's own code, whose
 * `execute` relies on its schema, and whose author can mend it.
 */
export type SchemaSource = 'mcp-server' | 'user-code';

/**
 * What is wrong with a schema. `'unenforced-pattern'`: a `pattern` (or `patternProperties`
 * key) RE2 cannot run, so it is not enforced. `'invalid'`: ajv refuses to compile it.
 * `'uncheckable'`: compiling or checking it would hold the event loop, or never end (too much
 * to compile, `costlySchema`; checking that doubles at every level or link, `checkingCost`; a
 * `$ref` that loops in place; for a server's schema also one that is too large or whose `$ref`
 * points outside it).
 */
export type SchemaFinding = 'unenforced-pattern' | 'invalid' | 'uncheckable';

/**
 * What each source's path can do with a tool: an MCP tool is kept, kept with a `Warning` to
 * every run that may use it, or left out with one; the user's own is kept, or refused with a
 * `TypeError` (or, from a tools function, the run's abnormal end) naming the tool.
 */
export interface SchemaActions {
  readonly 'mcp-server': 'keep' | 'keep-with-warning' | 'leave-out';
  readonly 'user-code': 'keep' | 'refuse';
}

/** What becomes of a tool whose schema has a finding, and why that is the rule. */
export interface SchemaVerdict<S extends SchemaSource> {
  readonly action: SchemaActions[S];
  /** The reason for the rule, in words for a reader of the code, the tests and the docs. */
  readonly why: string;
}

const AUTHOR_MENDS = 'the author can mend it where it is written';

// The table. The two sources differ on purpose: a server's tool is the server's to check (its
// other tools and the run are not at fault), but it must not hold the process; the user's own
// `execute` trusts its schema, so what would go unchecked is refused where it can be mended.
const POLICY: { readonly [S in SchemaSource]: { readonly [F in SchemaFinding]: SchemaVerdict<S> } } = {
  'mcp-server': {
    'unenforced-pattern': {
      action: 'keep-with-warning',
      why: 'the server checks its own arguments; the rest of the schema is still enforced, and every run that may use the tool is told which pattern is not',
    },
    invalid: {
      action: 'keep-with-warning',
      why: 'the server checks its own arguments; calls are checked to be an object only, and every run that may use the tool is told so (found when listed against the meta-schema, which costs milliseconds where compiling costs half a second per 64 KiB)',
    },
    uncheckable: {
      action: 'leave-out',
      why: 'a server may be hostile: its schema must not hold the event loop of every run of the process, and its other tools are offered as usual',
    },
  },
  'user-code': {
    'unenforced-pattern': { action: 'refuse', why: `\`execute\` relies on its schema, and a pattern left unchecked would let through what it means to keep out; ${AUTHOR_MENDS}` },
    invalid: { action: 'refuse', why: `nothing could be checked against it; ${AUTHOR_MENDS}` },
    uncheckable: { action: 'refuse', why: `compiling or checking it would hold the event loop of every run of the process; ${AUTHOR_MENDS}` },
  },
};

/**
 * What becomes of a tool from `source` whose input schema has `finding`, and why.
 *
 * @example
 * ```ts
 * schemaVerdict('mcp-server', 'unenforced-pattern').action; // 'keep-with-warning'
 * schemaVerdict('user-code', 'uncheckable').action; // 'refuse'
 * ```
 */
export function schemaVerdict<S extends SchemaSource>(source: S, finding: SchemaFinding): SchemaVerdict<S> {
  return POLICY[source][finding] as SchemaVerdict<S>;
}
