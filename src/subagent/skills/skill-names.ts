import { AGENT_NAME_PATTERN } from '../agent-definition.js';
import { toToolList } from '../value-checks.js';

/**
 * Reads a definition's `skills`: a list of names or a comma string, each a folder name
 * (letters, digits, `_` and `-`, so a name never leaves the skills folder). Returns an error
 * reason instead of throwing so the caller can add where the value came from.
 */
export function readSkillNames(key: string, value: unknown): readonly string[] | string {
  const list = toToolList(key, value);
  if (typeof list === 'string') return list.replace('tool name', 'skill name');
  const bad = list.find((name) => !AGENT_NAME_PATTERN.test(name));
  if (bad !== undefined) return `"${key}" item ${JSON.stringify(bad)} is not a skill name: use letters, digits, "_" and "-" (the name of its folder)`;
  return list;
}
