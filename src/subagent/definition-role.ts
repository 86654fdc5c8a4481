import type { AgentDefinition } from './agent-definition.js';

/** What a definition is for (opencode's `mode`); see {@link AgentDefinition.mode}. */
export type AgentMode = NonNullable<AgentDefinition['mode']>;

/** Every {@link AgentMode}, as the front matter's schema lists them. */
export const AGENT_MODES = ['subagent', 'primary', 'all'] as const satisfies readonly AgentMode[];

/** The keys that say how a definition is registered and shown, rather than how it runs. */
export type DefinitionRole = { -readonly [K in 'mode' | 'color' | 'override']?: AgentDefinition[K] };

const has = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Reads `mode` (or Solon's `primary: true|false` for `mode: primary|subagent`), `color` and
 * `override`, already checked against the front matter's schema (which allows `mode` or
 * `primary`, not both); a key left out (or `null`) stays out of the result.
 */
export function readRole(fields: Readonly<Record<string, unknown>>): DefinitionRole {
  const role: DefinitionRole = {};
  const { mode, primary, color, override } = fields;
  if (has(primary)) role.mode = primary === true ? 'primary' : 'subagent';
  else if (has(mode)) role.mode = mode as AgentMode;
  if (has(color)) role.color = (color as string).trim();
  if (has(override)) role.override = override as boolean;
  return role;
}

/** The definition's mode, `subagent` when it gives none. */
export function modeOf(definition: AgentDefinition): AgentMode {
  return definition.mode ?? 'subagent';
}

/** Whether `task` / `multitask` may offer and run the definition (mode `subagent` or `all`). */
export function isSubagent(definition: AgentDefinition): boolean {
  return modeOf(definition) !== 'primary';
}

/**
 * Whether the definition is listed (in the `task` and `multitask` descriptions and the main
 * agent's prompt): enabled, not hidden, and a subagent. A hidden one can still be run by name.
 */
export function isListed(definition: AgentDefinition): boolean {
  return definition.enabled && !definition.hidden && isSubagent(definition);
}

/** Whether the definition may define the main agent (mode `primary` or `all`) and is enabled. */
export function isPrimaryCandidate(definition: AgentDefinition): boolean {
  return definition.enabled && modeOf(definition) !== 'subagent';
}
