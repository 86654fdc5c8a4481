import { describe, expect, it } from 'vitest';
import { ACCEPTED_KEYS, KNOWN_KEYS } from '../../src/subagent/build-definition.js';
import { DefinitionError } from '../../src/subagent/definition-error.js';
import { FRONT_MATTER_SCHEMA } from '../../src/subagent/front-matter-schema.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { agentFile } from './temp-agents.js';

const reasonOf = (extra: string): string => {
  try {
    parseAgentMarkdown(agentFile('x', extra), { source: 'dir', file: '/x/x.md' });
  } catch (error) {
    return (error as DefinitionError).reason;
  }
  return 'loaded';
};

describe('the front matter, described by one schema', () => {
  it('is where the known keys come from (Solon\'s primary is accepted, not ours)', () => {
    expect([...KNOWN_KEYS, 'primary']).toEqual(Object.keys(FRONT_MATTER_SCHEMA.properties));
    for (const key of Object.keys(FRONT_MATTER_SCHEMA.properties)) expect(ACCEPTED_KEYS).toContain(key);
  });

  it('words a value that does not fit with the key as the file spells it', () => {
    expect(reasonOf('token_budget: 0\n')).toBe('"token_budget" must be a positive integer (tokens), got the number 0');
    expect(reasonOf('steps: 2.5\n')).toBe('"steps" must be a positive integer, got the number 2.5');
    expect(reasonOf('color: "  "\n')).toBe('"color" must be a colour name or "#rrggbb" (a non-empty string, quoted when it starts with #), got the string "  "');
    expect(reasonOf('model: ""\n')).toBe('"model" must be a model name (a non-empty string), got the string ""');
    expect(reasonOf('enabled: 1\n')).toBe('"enabled" must be true or false, got the number 1');
  });

  it('reads null as absent, as everywhere in front matter', () => {
    expect(reasonOf('model:\nmaxSteps:\nhidden:\n')).toBe('loaded');
  });
});
