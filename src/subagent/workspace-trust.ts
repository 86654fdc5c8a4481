import { describeRule } from '../permission/index.js';
import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';

/**
 * Whether a definition's permission rules may loosen its agent (an `allow` that beats a
 * default ask, or that reaches outside the workspace). A definition read from the
 * workspace's `.rxharness/agents/` is untrusted input (a cloned repository wrote it), so
 * its rules may only narrow unless the engine trusts workspace definitions; built-in,
 * user-folder, `agentDirs` and programmatic definitions keep their full power.
 *
 * @example
 * ```ts
 * mayLoosen(definition, false); // false for a workspace definition, true for the others
 * ```
 */
export function mayLoosen(definition: AgentDefinition, trustWorkspaceAgents: boolean): boolean {
  return definition.source !== 'workspace' || trustWorkspaceAgents;
}

/** One diagnostic per `allow` rule that {@link mayLoosen} ignores, so `rxharness agents` shows it. */
export function ignoredRuleDiagnostics(definition: AgentDefinition, trustWorkspaceAgents: boolean): AgentDiagnostic[] {
  if (mayLoosen(definition, trustWorkspaceAgents)) return [];
  const file = definition.file ?? `agent "${definition.name}" (${definition.source})`;
  return definition.permissionRules
    .filter((rule) => rule.action === 'allow')
    .map((rule) => ({
      file,
      reason:
        `permission rule ${describeRule(rule)} is ignored: a definition in the workspace may only narrow its agent ` +
        '(its deny and ask rules apply). Set the engine option trustWorkspaceAgents to trust workspace definitions, ' +
        'or move the file to ~/.rxharness/agents/ or a folder in agentDirs.',
    }));
}
