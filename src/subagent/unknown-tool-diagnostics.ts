import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { isKnownToolName } from './narrow-tools.js';

/**
 * One diagnostic per tool a definition names (in `tools` or `disallowedTools`) that is not
 * in `knownTools`; `*` always passes (aliases like `pi` were expanded when the definition was
 * built), and so do a glob matching a known tool and a name a known glob matches (an MCP
 * server's tools are known as `mcp__<server>__*` before it starts). A typo in `tools` would
 * silently narrow the agent, so it is worth a warning, but not worth refusing the definition.
 * A name that differs from a known tool only in case (Claude Code's `Read`) gets a
 * did-you-mean; it is not mapped, since tool names are case-sensitive.
 */
export function unknownToolDiagnostics(definition: AgentDefinition, knownTools: readonly string[]): AgentDiagnostic[] {
  const named = [...(definition.tools ?? []), ...(definition.disallowedTools ?? [])];
  const unknown = [...new Set(named)].filter((tool) => !isKnownToolName(tool, knownTools));
  const file = definition.file ?? `agent "${definition.name}" (${definition.source})`;
  const known = knownTools.length > 0 ? [...knownTools].sort().join(', ') : '(none)';
  return unknown.map((tool) => {
    const sameLetters = knownTools.find((candidate) => candidate.toLowerCase() === tool.toLowerCase());
    const hint = sameLetters === undefined ? '' : ` did you mean "${sameLetters}"?`;
    return { file, reason: `unknown tool "${tool}";${hint} known tools: ${known}` };
  });
}
