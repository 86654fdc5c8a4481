import type { McpServers, McpToolsAnswer, McpToolsRequest, McpWarning } from '../mcp/mcp-servers.js';
import { mcpServerOf, mcpToolPrefix } from '../mcp/mcp-tool-name.js';
import { isDelegationTool } from '../subagent/delegation-tool-names.js';
import { applyNarrowing, mayKeepPrefix } from '../subagent/narrow-tools.js';
import type { Tool } from '../tools/tool.js';
import type { AgentSpec } from './delegation-types.js';

// The warnings of each tool list handed to a run, found again by `toolWarningsOf`.
const warningsOf = new WeakMap<readonly Tool[], readonly McpWarning[]>();

/**
 * An agent's tools at its run start when the engine has MCP servers: `base` (its toolbox
 * tools), then its MCP tools, then its delegation tools, made by `own` from the spec as
 * resolved now. An MCP tool's name is known only once its server runs, so a spec made before
 * that (the main agent's, a primary definition's, a definition run directly) carries the
 * narrowing that chooses them (`mcpNarrowing`): here the servers it may use are started, the
 * narrowing is applied to the names they offer, and the delegation tools get a spec that
 * names them, so its children narrow from the tools this run really has. A child's spec
 * names its MCP tools already (its parent's run resolved them); its servers are started
 * again if they stopped. Synchronous when every server it needs runs.
 *
 * @example
 * ```ts
 * tools: () => mcpRunTools(servers, spec, base, (resolved) => delegationTools(resolved)),
 * toolWarnings: toolWarningsOf,
 * ```
 */
export function mcpRunTools(servers: McpServers, spec: AgentSpec, base: readonly Tool[], own: (resolved: AgentSpec) => readonly Tool[]): readonly Tool[] | Promise<readonly Tool[]> {
  const narrowing = spec.mcpNarrowing;
  const held = new Set(base.map((t) => t.name));
  const request: McpToolsRequest = {
    names: spec.toolNames.filter((name) => !held.has(name) && mcpServerOf(name) !== undefined),
    ...(narrowing ? { select: { servers: (server: string) => mayKeepPrefix(narrowing, mcpToolPrefix(server)), keep: (names: readonly string[]) => applyNarrowing(narrowing, names) } } : {}),
  };
  const finish = ({ tools, warnings }: McpToolsAnswer): readonly Tool[] => {
    const resolved = narrowing ? resolve(spec, held, tools) : spec;
    const all = [...base, ...tools, ...own(resolved)];
    if (warnings.length > 0) warningsOf.set(all, warnings);
    return all;
  };
  const answer = servers.toolsFor(request);
  return answer instanceof Promise ? answer.then(finish) : finish(answer);
}

/**
 * The warnings that came with a tool list {@link mcpRunTools} answered (none for any other list).
 *
 * @example
 * ```ts
 * const tools = await mcpRunTools(servers, spec, base, own);
 * toolWarningsOf(tools); // [{ code: 'mcp-server-failed', message: 'MCP server "fs" failed to start: ...' }]
 * ```
 */
export function toolWarningsOf(tools: readonly Tool[]): readonly McpWarning[] {
  return warningsOf.get(tools) ?? [];
}

/** The spec with its MCP tools named, in the order the run offers them, and nothing left to choose. */
function resolve(spec: AgentSpec, held: ReadonlySet<string>, mcpTools: readonly Tool[]): AgentSpec {
  const { mcpNarrowing: _chosen, ...rest } = spec;
  const toolNames = [...spec.toolNames.filter((name) => held.has(name)), ...mcpTools.map((t) => t.name), ...spec.toolNames.filter(isDelegationTool)];
  return { ...rest, toolNames };
}
