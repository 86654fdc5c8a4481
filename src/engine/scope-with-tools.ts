import type { AgentScope } from '../agent/agent-scope.js';
import type { Tool } from '../tools/tool.js';

/**
 * A scope like `scope`'s, whose runs are also offered `extra` tools (one of the same name as
 * an agent's own tool replaces it). The engine's permission rules still gate their calls.
 * What `engine.start(prompt, { tools })` runs with: tools that exist for one run only, such
 * as the frontend tools an AG-UI client sends with its request.
 */
export function scopeWithTools(scope: () => AgentScope, extra: readonly Tool[]): () => AgentScope {
  if (extra.length === 0) return scope;
  const names = new Set(extra.map((tool) => tool.name));
  return () => {
    const base = scope();
    const tools = async (): Promise<readonly Tool[]> => [...(await base.tools()).filter((tool) => !names.has(tool.name)), ...extra];
    return { ...base, tools };
  };
}
