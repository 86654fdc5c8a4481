import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { isPrimaryCandidate, modeOf } from './definition-role.js';

/** The definition of the main agent, and a diagnostic for each other one that asked to be it. */
export interface PrimaryChoice {
  readonly primary: AgentDefinition | undefined;
  readonly diagnostics: readonly AgentDiagnostic[];
}

/**
 * Picks the primary definition: the first enabled definition with `mode: primary` or
 * `mode: all` in `ordered` (the caller puts them in priority order). There is one main
 * agent, so every later candidate gets a diagnostic naming the one that won and what
 * becomes of the loser: a `primary` one is not used at all, an `all` one stays a subagent.
 */
export function choosePrimary(ordered: Iterable<AgentDefinition>): PrimaryChoice {
  let primary: AgentDefinition | undefined;
  const diagnostics: AgentDiagnostic[] = [];
  for (const definition of ordered) {
    if (!isPrimaryCandidate(definition)) continue;
    if (primary === undefined) {
      primary = definition;
      continue;
    }
    const fate = modeOf(definition) === 'all' ? 'it is still offered as a subagent' : 'it is not used';
    diagnostics.push({
      file: labelOf(definition),
      reason:
        `agent "${definition.name}" asks to define the main agent (mode: ${modeOf(definition)}), but there is one main agent ` +
        `and "${primary.name}" (${labelOf(primary)}) already defines it; ${fate}. Keep "mode: primary" in one definition only`,
    });
  }
  return { primary, diagnostics };
}

function labelOf(definition: AgentDefinition): string {
  return definition.file ?? `agent "${definition.name}" (${definition.source})`;
}
