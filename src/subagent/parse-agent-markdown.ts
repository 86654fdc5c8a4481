import type { AgentDefinition, AgentOrigin } from './agent-definition.js';
import { buildDefinition } from './build-definition.js';
import { readFrontMatter } from './front-matter.js';

/**
 * Parses an agent definition: YAML front matter between `---` lines at the very start
 * (a BOM and CRLF line endings are fine), then the system prompt as the Markdown body.
 * `name`, `description` and a non-empty body are required; `tools` and `disallowedTools`
 * take a YAML list or a comma string; unknown keys are kept in `extra`.
 *
 * @param origin - the source, and the file (labels error messages and is kept as `file`)
 * @throws DefinitionError saying what is wrong and where.
 *
 * @example
 * ```ts
 * const def = parseAgentMarkdown(
 *   '---\nname: reviewer\ndescription: Reviews a change.\ntools: read, grep\n---\nYou review code.',
 *   { source: 'workspace', file: '/repo/.rxharness/agents/reviewer.md' },
 * );
 * def.tools; // ['read', 'grep']
 * ```
 */
export function parseAgentMarkdown(text: string, origin: AgentOrigin): AgentDefinition {
  const where = origin.file ?? 'agent definition';
  const { data, body } = readFrontMatter(text, where, origin.file);
  return buildDefinition(data, body, {
    origin,
    holder: 'front matter',
    promptLabel: 'the body (the text after the closing "---")',
  });
}
