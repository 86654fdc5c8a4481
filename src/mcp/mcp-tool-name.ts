import { createHash } from 'node:crypto';

/** Every MCP tool's name starts with this. */
export const MCP_TOOL_PREFIX = 'mcp__';

/** The longest tool name OpenAI's API accepts (and so the longest we make). */
const MAX_NAME = 64;

/**
 * What the tools of server `server` are called up to their own name: `mcp__<server>__`.
 *
 * @example
 * ```ts
 * mcpToolPrefix('fs'); // 'mcp__fs__'
 * ```
 */
export function mcpToolPrefix(server: string): string {
  return `${MCP_TOOL_PREFIX}${server}__`;
}

/**
 * The name an agent knows a server's tool by: `mcp__<server>__<tool>`, with characters models
 * do not accept in a name (outside `[a-zA-Z0-9_-]`) replaced by `_`, and a name longer than
 * 64 characters cut, ending in a short hash of the full one so two long names stay apart.
 *
 * @example
 * ```ts
 * mcpToolName('fs', 'read_text_file'); // 'mcp__fs__read_text_file'
 * mcpToolName('docs', 'search.pages'); // 'mcp__docs__search_pages'
 * ```
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `${mcpToolPrefix(server)}${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/**
 * The server an MCP tool name belongs to, or undefined for any other name. Server names hold
 * no `__`, so the first `__` after the prefix ends it.
 *
 * @example
 * ```ts
 * mcpServerOf('mcp__fs__read_text_file'); // 'fs'
 * mcpServerOf('read'); // undefined
 * ```
 */
export function mcpServerOf(toolName: string): string | undefined {
  if (!toolName.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const end = toolName.indexOf('__', MCP_TOOL_PREFIX.length);
  return end > MCP_TOOL_PREFIX.length ? toolName.slice(MCP_TOOL_PREFIX.length, end) : undefined;
}
