import type { PermissionRule } from '../permission/index.js';
import type { AgentDefinition } from './agent-definition.js';
import { buildDefinition, KNOWN_KEYS } from './build-definition.js';
import { DefinitionError } from './definition-error.js';
import { isPlainRecord } from './value-checks.js';

/** What {@link defineAgent} takes: the same fields as a definition file's front matter. */
export interface AgentInput {
  readonly name: string;
  readonly description: string;
  readonly systemPrompt: string;
  /** A list, or a comma string like `'read, grep, glob'`. Absent, empty or `*`: every tool. */
  readonly tools?: readonly string[] | string;
  readonly disallowedTools?: readonly string[] | string;
  readonly model?: string;
  readonly maxSteps?: number;
  readonly hidden?: boolean;
  readonly enabled?: boolean;
  readonly permissionRules?: readonly PermissionRule[];
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
  const clash = Object.keys(extra ?? {}).find((key) => KNOWN_KEYS.includes(key));
  if (clash !== undefined) throw new DefinitionError(label, `"extra" cannot hold "${clash}": pass it as an option`);
  const fields = { ...(extra ?? {}), ...known };
  return buildDefinition(fields, systemPrompt, {
    origin: { source: 'runtime' },
    holder: 'definition',
    promptLabel: '"systemPrompt"',
  });
}
