import type { AgentScope } from '../agent/agent-scope.js';
import { isKnownToolName } from '../subagent/narrow-tools.js';
import type { Tool } from '../tools/tool.js';
import { assertCheckableParameters } from '../tools/tool-input.js';

/**
 * A scope like `scope`'s, whose runs are also offered `extra` tools, besides the agent's own.
 * The engine's permission rules still gate their calls. What `engine.start(prompt, { tools })`
 * runs with: tools that exist for one run only, such as the frontend tools an AG-UI client
 * sends with its request.
 *
 * @param taken The names of the engine's own tools (globs for an MCP server's, `mcp__fs__*`).
 * @throws TypeError for an extra tool named like one of `taken`: it would take the place of
 *   the engine's tool for the run (a client's `bash` run instead of ours), or sit beside it
 *   under one name, which the model server refuses; or whose `parameters` cannot be checked
 *   against (see {@link assertRunTools}).
 */
export function scopeWithTools(scope: () => AgentScope, extra: readonly Tool[], taken: readonly string[]): () => AgentScope {
  if (extra.length === 0) return scope;
  assertRunTools(extra, taken);
  return () => {
    const base = scope();
    const tools = async (): Promise<readonly Tool[]> => [...(await base.tools()), ...extra];
    return { ...base, tools };
  };
}

/**
 * Checks tools offered for one run (see {@link scopeWithTools}): no one is named like one of
 * `taken`, and each one's `parameters` meet `defineTool`'s checks, as the engine's own
 * `tools` do when it is made: refused before the run starts, not found at a call.
 *
 * @throws TypeError naming the first tool that is named like one of `taken`, or whose
 *   `parameters` cannot be checked against (`start: the tool "name": …`).
 */
export function assertRunTools(extra: readonly Tool[], taken: readonly string[]): void {
  extra.forEach((tool, i) => {
    if (isKnownToolName(tool.name, taken)) {
      throw new TypeError(`start: tools[${i}] is named "${tool.name}", like a tool of the engine's own (${taken.join(', ')}); name it differently`);
    }
    assertCheckableParameters('start', tool);
  });
}
