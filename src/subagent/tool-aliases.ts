/**
 * Names a definition's `tools` and `disallowedTools` may use for a set of tools (Solon's
 * conventions): `pi` the four tools of a coding agent, `ls` for `list`. They are expanded
 * when the definition is built, so a definition's lists hold real tool names, the two set
 * names `*` and `**` (kept: see {@link inToolSet}) and globs only.
 */
export const TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  pi: Object.freeze(['read', 'write', 'edit', 'bash']),
  ls: Object.freeze(['list']),
});

/**
 * Tools that another tool needs to be of use, granted with it in `tools` (not removed with
 * it in `disallowedTools`): `edit` replaces text the model must first read, and may create
 * what `write` would (Solon: "edit implies read and write").
 */
export const IMPLIED_TOOLS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  edit: Object.freeze(['read', 'write']),
});

/** The public tool set (Solon's `*`): every tool but MCP tools. */
export const PUBLIC_TOOL_SET = '*';
/** The full tool set (Solon's `**`): every tool, MCP tools included. */
export const FULL_TOOL_SET = '**';
// How MCP tools are named (`mcp__<server>__<tool>`, see src/mcp/mcp-tool-name.ts, a part of
// the same layer, which this one does not import).
const MCP_PREFIX = 'mcp__';

/**
 * Whether `entry` names a tool set (`*` or `**`), and if so whether the tool `name` is in it.
 *
 * @returns `undefined` when `entry` is not a set's name.
 *
 * @example
 * ```ts
 * inToolSet('*', 'bash'); // true
 * inToolSet('*', 'mcp__fs__read_file'); // false
 * inToolSet('**', 'mcp__fs__read_file'); // true
 * inToolSet('read', 'read'); // undefined
 * ```
 */
export function inToolSet(entry: string, name: string): boolean | undefined {
  if (entry === FULL_TOOL_SET) return true;
  if (entry === PUBLIC_TOOL_SET) return !name.startsWith(MCP_PREFIX);
  return undefined;
}

/**
 * `names` with each alias replaced by the tools it stands for, in place, repeats removed
 * (the first place wins); with `implied` (a `tools` list) each tool is followed by those it
 * implies (`edit`: `read`, `write`). Idempotent: expanding an expanded list changes nothing.
 *
 * @example
 * ```ts
 * expandToolAliases(['pi', 'grep', 'read']); // ['read', 'write', 'edit', 'bash', 'grep']
 * expandToolAliases(['edit', 'grep'], { implied: true }); // ['edit', 'read', 'write', 'grep']
 * ```
 */
export function expandToolAliases(names: readonly string[], options: { readonly implied?: boolean } = {}): readonly string[] {
  const plain = names.flatMap((name) => (Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name]! : [name]));
  const expanded = options.implied ? plain.flatMap((name) => [name, ...(Object.hasOwn(IMPLIED_TOOLS, name) ? IMPLIED_TOOLS[name]! : [])]) : plain;
  return Object.freeze([...new Set(expanded)]);
}
