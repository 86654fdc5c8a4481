import type { AgentManager } from '../subagent/agent-manager.js';
import type { Tool } from '../tools/tool.js';
import type { AgentSpec, Delegation } from './delegation-types.js';
import { createGenerateTool } from './generate-tool.js';
import { createMultitaskTool } from './multitask-tool.js';
import { createTaskTool } from './task-tool.js';

/** What the delegation tools of an agent are made from. */
export interface DelegationToolsOptions {
  readonly delegation: Delegation;
  readonly agents: AgentManager;
  /** Every tool name a generated agent may list. */
  readonly knownTools: readonly string[];
  readonly workspace: string;
}

/**
 * The delegation tools a spec holds (`task`, `multitask`, `generate`), bound to it: each
 * call knows which agent delegates (for its rules and its depth).
 *
 * @example
 * ```ts
 * const tools = delegationTools(spec, { delegation: runner, agents, knownTools, workspace });
 * ```
 */
export function delegationTools(spec: AgentSpec, o: DelegationToolsOptions): Tool[] {
  const tools: Tool[] = [];
  if (spec.toolNames.includes('task')) tools.push(createTaskTool(spec, o.delegation) as Tool);
  if (spec.toolNames.includes('multitask')) tools.push(createMultitaskTool(spec, o.delegation) as Tool);
  if (spec.toolNames.includes('generate')) tools.push(createGenerateTool({ agents: o.agents, knownTools: o.knownTools, workspace: o.workspace }) as Tool);
  return tools;
}
