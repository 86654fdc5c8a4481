/**
 * Names a definition's `tools` and `disallowedTools` may use for a set of tools (Solon's
 * conventions): `**` every tool (Solon's "full set"; here the same as `*`), `pi` the four
 * tools of a coding agent, `ls` for `list`. They are expanded when the definition is built,
 * so a definition's lists hold real tool names only.
 */
export const TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  '**': Object.freeze(['*']),
  pi: Object.freeze(['read', 'write', 'edit', 'bash']),
  ls: Object.freeze(['list']),
});

/**
 * `names` with each alias replaced by the tools it stands for, in place, repeats removed
 * (the first place wins). Idempotent: expanding an expanded list changes nothing.
 *
 * @example
 * ```ts
 * expandToolAliases(['pi', 'grep', 'read']); // ['read', 'write', 'edit', 'bash', 'grep']
 * ```
 */
export function expandToolAliases(names: readonly string[]): readonly string[] {
  const expanded = new Set(names.flatMap((name) => (Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name]! : [name])));
  return Object.freeze([...expanded]);
}
