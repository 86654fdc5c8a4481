import type { AgentDefinition, AgentSource } from './agent-definition.js';
import { buildDefinition, isBuiltDefinition } from './build-definition.js';
import { DefinitionError } from './definition-error.js';
import { isPlainRecord } from './plain-values.js';

const SOURCES: ReadonlySet<string> = new Set<AgentSource>(['builtin', 'workspace', 'user', 'dir', 'runtime']);

/**
 * Checks a definition handed over in code. Definitions made by this module are already
 * valid, so they are kept as they are (same object); anything else (an object literal typed as
 * `AgentDefinition`) is validated like front matter and rebuilt with defaults filled in.
 *
 * @throws DefinitionError naming the first problem.
 */
export function normalizeDefinition(definition: AgentDefinition): AgentDefinition {
  if (isBuiltDefinition(definition)) return definition;
  const raw: unknown = definition;
  if (!isPlainRecord(raw)) throw new DefinitionError('agent definition', 'must be an object (see defineAgent)');
  const { systemPrompt, source, file, extra, ...fields } = raw;
  const label = typeof fields['name'] === 'string' ? `agent "${fields['name']}"` : 'agent definition';
  if (typeof source !== 'string' || !SOURCES.has(source)) {
    throw new DefinitionError(label, `"source" must be one of ${[...SOURCES].join(', ')}`);
  }
  if (file !== undefined && typeof file !== 'string') throw new DefinitionError(label, '"file" must be a path');
  const origin = { source: source as AgentSource, ...(file === undefined ? {} : { file }) };
  return buildDefinition({ ...(isPlainRecord(extra) ? extra : {}), ...fields }, systemPrompt, {
    origin,
    holder: 'definition',
    promptLabel: '"systemPrompt"',
  });
}

