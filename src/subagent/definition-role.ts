import type { AgentDefinition } from './agent-definition.js';
import { describeValue } from './value-checks.js';

/** What a definition is for (opencode's `mode`); see {@link AgentDefinition.mode}. */
export type AgentMode = NonNullable<AgentDefinition['mode']>;

const MODES: readonly AgentMode[] = ['subagent', 'primary', 'all'];

/** The keys that say how a definition is registered and shown, rather than how it runs. */
export type DefinitionRole = { -readonly [K in 'mode' | 'color' | 'override']?: AgentDefinition[K] };

const has = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Reads `mode` (or Solon's `primary`), `color` and `override`, whose types the front matter's
 * schema has checked; a key left out (or `null`) stays out of the result.
 *
 * @throws Error naming the key and what it takes.
 */
export function readRole(fields: Readonly<Record<string, unknown>>): DefinitionRole {
  const role: DefinitionRole = {};
  const mode = readMode(fields);
  if (mode !== undefined) role.mode = mode;
  // Their types were checked against the front matter's schema (FRONT_MATTER_SCHEMA).
  const color = fields['color'];
  if (has(color)) role.color = (color as string).trim();
  const override = fields['override'];
  if (has(override)) role.override = override as boolean;
  return role;
}

/**
 * Reads `mode` (opencode: `subagent`, `primary` or `all`), or Solon's `primary: true|false`
 * for `mode: primary|subagent`. Undefined when neither is given (`null` counts as absent).
 *
 * @throws Error saying what is wrong with the value, or that both keys were given.
 */
function readMode(fields: Readonly<Record<string, unknown>>): AgentMode | undefined {
  const mode = fields['mode'];
  const primary = fields['primary'];
  if (has(mode) && has(primary)) {
    throw new Error('"mode" and "primary" say the same thing two ways (primary: true is mode: primary); keep one of them');
  }
  if (has(primary)) return primary === true ? 'primary' : 'subagent';
  if (!has(mode)) return undefined;
  if (typeof mode === 'string' && (MODES as readonly string[]).includes(mode)) return mode as AgentMode;
  // `mode: fast` is most likely a slip for `model: fast`.
  const hint = typeof mode === 'string' && !has(fields['model']) ? ' (to choose a model, the key is "model")' : '';
  throw new Error(`"mode" must be "subagent", "primary" or "all", got ${describeValue(mode)}${hint}`);
}

/** The definition's mode, `subagent` when it gives none. */
export function modeOf(definition: AgentDefinition): AgentMode {
  return definition.mode ?? 'subagent';
}

/** Whether `task` / `multitask` may offer and run the definition (mode `subagent` or `all`). */
export function isSubagent(definition: AgentDefinition): boolean {
  return modeOf(definition) !== 'primary';
}

/** Whether the definition may define the main agent (mode `primary` or `all`) and is enabled. */
export function isPrimaryCandidate(definition: AgentDefinition): boolean {
  return definition.enabled && modeOf(definition) !== 'subagent';
}
