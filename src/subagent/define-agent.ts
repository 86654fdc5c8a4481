import type { ModelSettings } from '../model/model-settings.js';
import type { PermissionRuleInput } from '../permission/index.js';
import type { AgentDefinition } from './agent-definition.js';
import { ACCEPTED_KEYS, buildDefinition, KNOWN_KEYS } from './build-definition.js';
import { DefinitionError } from './definition-error.js';
import { isPlainRecord } from './plain-values.js';

/** What {@link defineAgent} takes: the same fields as a definition file's front matter. */
export interface AgentInput {
  /** The agent's name, as `task` calls it: letters, digits, `_` and `-`. */
  readonly name: string;
  /** What the agent is for; the main agent reads it when choosing whom to delegate to. */
  readonly description: string;
  /** The agent's instructions (a file's Markdown body); must not be empty. */
  readonly systemPrompt: string;
  /** A list, or a comma string like `'read, grep, glob'`. Absent, empty, `*` or `**`: every tool; `pi`: read, write, edit, bash; `ls`: list. */
  readonly tools?: readonly string[] | string;
  /** Tools taken away even when `tools` allows them; a list or a comma string. */
  readonly disallowedTools?: readonly string[] | string;
  /** Skills put into the system prompt: folder names under `.rxharness/skills/` (workspace, then home); a list or a comma string. */
  readonly skills?: readonly string[] | string;
  /** A model name from the engine's `models`; absent or `'inherit'` (Claude Code's spelling): the parent's model. An unknown name fails the task that runs the agent. */
  readonly model?: string;
  /** ReAct step limit for a run of this agent, a positive integer; absent: the engine's `maxSteps`. */
  readonly maxSteps?: number;
  /** The most tokens a run of this agent and what it delegates may use, within its parent's remainder. */
  readonly tokenBudget?: number;
  /** Model settings of the agent's requests (camelCase here; a file's front matter uses `temperature`, `top_p`...). */
  readonly settings?: ModelSettings;
  /** `subagent` (default), `primary` (defines the main agent, not offered to `task`) or `all` (both). */
  readonly mode?: 'subagent' | 'primary' | 'all';
  /** The agent card URL of a remote A2A agent that runs this agent's tasks (see `AgentDefinition.a2a`); `systemPrompt` may then be empty. */
  readonly a2a?: string;
  /** A colour for UIs (a name or `#hex`); kept, never interpreted. */
  readonly color?: string;
  /** Only meaningful in a file (it lets the file replace a built-in); kept here so a definition round-trips. */
  readonly override?: boolean;
  /** Leave the agent out of listings and tool descriptions (it still runs by name); default false. */
  readonly hidden?: boolean;
  /** False leaves the agent out of listings; default true. */
  readonly enabled?: boolean;
  /** The agent's own permission rules, layered above the engine's; it always keeps its parent's denies. */
  readonly permissionRules?: readonly PermissionRuleInput[];
  /** Extra keys, kept with the definition (and written to its front matter) but ignored. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

const INPUT_KEYS = new Set([...KNOWN_KEYS, 'systemPrompt', 'extra']);

/**
 * Builds a validated definition in code, with `source: 'runtime'`. Input is checked as
 * strictly as a file's front matter; an option this function does not know is an error
 * (probably a typo), use `extra` for your own keys.
 *
 * @throws DefinitionError naming the first problem.
 *
 * @example
 * ```ts
 * engine.agents.add(defineAgent({
 *   name: 'reviewer',
 *   description: 'Reviews a change for bugs. Read-only.',
 *   systemPrompt: 'You are a code reviewer...',
 *   tools: ['read', 'grep', 'glob'],
 * }));
 * ```
 */
export function defineAgent(input: AgentInput): AgentDefinition {
  const raw: unknown = input;
  const label = isPlainRecord(raw) && typeof raw['name'] === 'string' ? `agent "${raw['name']}"` : 'agent definition';
  if (!isPlainRecord(raw)) throw new DefinitionError(label, 'defineAgent() takes an object with name, description and systemPrompt');
  const unknown = Object.keys(raw).filter((key) => !INPUT_KEYS.has(key));
  if (unknown.length > 0) {
    throw new DefinitionError(label, `unknown option ${unknown.map((key) => `"${key}"`).join(', ')}; put your own keys in "extra"`);
  }
  const { systemPrompt, extra, ...known } = raw;
  if (extra !== undefined && !isPlainRecord(extra)) throw new DefinitionError(label, '"extra" must be an object');
  // Other frameworks' spellings too: `extra: { max_turns: 3 }` must not quietly set maxSteps.
  const clash = Object.keys(extra ?? {}).find((key) => ACCEPTED_KEYS.includes(key));
  if (clash !== undefined) throw new DefinitionError(label, `"extra" cannot hold "${clash}": pass it as an option`);
  const fields = { ...(extra ?? {}), ...known };
  return buildDefinition(fields, systemPrompt, {
    origin: { source: 'runtime' },
    holder: 'definition',
    promptLabel: '"systemPrompt"',
  });
}
