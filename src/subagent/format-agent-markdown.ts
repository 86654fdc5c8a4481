import { dump } from 'js-yaml';
import type { AgentDefinition } from './agent-definition.js';
import { DefinitionError } from './definition-error.js';
import { SETTING_KEYS } from './definition-settings.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * Writes a definition as Markdown with YAML front matter, the format
 * {@link parseAgentMarkdown} reads: parsing the result gives back an equal definition.
 * Defaults (`hidden: false`, `enabled: true`, no rules) are left out; `extra` keys are kept.
 *
 * @throws DefinitionError when an `extra` value cannot be written as YAML (a function...).
 *
 * @example
 * ```ts
 * await writeFile('.rxharness/agents/reviewer.md', formatAgentMarkdown(definition));
 * ```
 */
export function formatAgentMarkdown(definition: AgentDefinition): string {
  const front: Record<string, unknown> = { name: definition.name, description: definition.description };
  if (definition.tools !== undefined) front['tools'] = [...definition.tools];
  if (definition.disallowedTools !== undefined) front['disallowedTools'] = [...definition.disallowedTools];
  if (definition.skills !== undefined) front['skills'] = [...definition.skills];
  if (definition.model !== undefined) front['model'] = definition.model;
  if (definition.maxSteps !== undefined) front['maxSteps'] = definition.maxSteps;
  if (definition.tokenBudget !== undefined) front['tokenBudget'] = definition.tokenBudget;
  for (const [key, setting] of Object.entries(SETTING_KEYS)) {
    const value = definition.settings?.[setting];
    if (value !== undefined) front[key] = value;
  }
  if (definition.mode !== undefined) front['mode'] = definition.mode;
  if (definition.a2a !== undefined) front['a2a'] = definition.a2a;
  if (definition.color !== undefined) front['color'] = definition.color;
  if (definition.override !== undefined) front['override'] = definition.override;
  if (definition.hidden) front['hidden'] = true;
  if (!definition.enabled) front['enabled'] = false;
  if (definition.permissionRules.length > 0) {
    front['permissionRules'] = definition.permissionRules.map((rule) =>
      Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined)));
  }
  for (const [key, value] of Object.entries(definition.extra)) {
    if (!(key in front)) front[key] = value;
  }
  let yaml: string;
  try {
    yaml = dump(front, { noRefs: true, lineWidth: -1 });
  } catch (error) {
    const reason = errorMessage(error);
    throw new DefinitionError(definition.file ?? `agent "${definition.name}"`, `cannot be written as YAML: ${reason}`,
      definition.file === undefined ? {} : { file: definition.file });
  }
  return `---\n${yaml}---\n\n${definition.systemPrompt}\n`;
}
