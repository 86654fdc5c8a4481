import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';

/**
 * One diagnostic per tool a definition names (in `tools` or `disallowedTools`) that is not
 * in `knownTools`; `*` always passes. A typo in `tools` would silently narrow the agent, so
 * it is worth a warning, but not worth refusing the definition.
 */
export function unknownToolDiagnostics(definition: AgentDefinition, knownTools: readonly string[]): AgentDiagnostic[] {
  const named = [...(definition.tools ?? []), ...(definition.disallowedTools ?? [])];
  const unknown = [...new Set(named)].filter((tool) => tool !== '*' && !knownTools.includes(tool));
  const file = definition.file ?? `agent "${definition.name}" (${definition.source})`;
  const known = knownTools.length > 0 ? [...knownTools].sort().join(', ') : '(none)';
  return unknown.map((tool) => ({ file, reason: `unknown tool "${tool}"; known tools: ${known}` }));
}
