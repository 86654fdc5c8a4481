/** The tools that delegate; a run at the depth limit never holds them. */
export const DELEGATION_TOOL_NAMES: readonly string[] = Object.freeze(['task', 'multitask', 'generate']);

/** Whether a tool name is one of the delegation tools. */
export function isDelegationTool(name: string): boolean {
  return DELEGATION_TOOL_NAMES.includes(name);
}
