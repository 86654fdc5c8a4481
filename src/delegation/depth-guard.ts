import type { ToolResult } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import type { AgentSpec, Delegation } from './delegation-types.js';

/**
 * The second, independent guard of the depth limit: even if a delegation tool reached an
 * agent at `maxDepth` (a hand-built tool list, say), the call is refused here.
 */
export function depthRefusal(parent: AgentSpec, delegation: Delegation, tool: string): ToolResult | undefined {
  if (parent.depth < delegation.maxDepth) return undefined;
  return toolError(
    `${tool} refused: agent "${parent.name}" is at delegation depth ${parent.depth} and the limit (maxDepth) is ` +
      `${delegation.maxDepth}, so it cannot delegate. Do the work yourself with your own tools.`,
  );
}
