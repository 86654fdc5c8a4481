import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_KEYS, KNOWN_KEYS, buildDefinition } from '../../src/subagent/build-definition.js';
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

// The keywords that constrain a value (a schema with none of them, `{}`, takes anything).
const CHECKS = ['type', 'enum', 'anyOf', 'pattern', 'format', 'minimum', 'items', 'properties', 'required'];

/** A schema's checks, looking through `anyOf` branches. */
function checksOf(schema: Record<string, unknown>): string[] {
  const own = Object.keys(schema).filter((keyword) => CHECKS.includes(keyword));
  const branches = (schema['anyOf'] as Record<string, unknown>[] | undefined) ?? [];
  return [...own, ...branches.flatMap(checksOf)];
}

// Values of every shape a YAML front matter (or defineAgent) can hand over, and near misses
// of the right ones: lists and comma strings of names, numbers at the limits, URLs, rules.
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('read, grep', 'a, ../b', ' ', '', 'subagent', 'fast', 'https://h.example/card.json', 'ftp://h/c', 'http://', '#ff0000', 'auto'),
  fc.constantFrom(0, 1, -1, 1.5, 2.5, 256, Number.NaN, Number.POSITIVE_INFINITY, true, false),
  fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxLength: 3 }),
  fc.array(fc.record({ tool: fc.constantFrom('bash', '', 3), action: fc.constantFrom('deny', 'maybe'), toolName: fc.constantFrom('bash', undefined) }, { requiredKeys: ['action'] }), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('temperature', 'topP', 'maxTokens', 'toolChoice', 'name', 'x'), fc.oneof(fc.double(), fc.string({ maxLength: 4 }), fc.boolean())),
);

/** Whether `reason` names `key` as a word (quoted `"max_turns"`, or bare as model settings word it: `top_p must be`). */
const names = (reason: string, key: string): boolean => new RegExp(`(^|[^A-Za-z_])${key}([^A-Za-z_]|$)`).test(reason);

describe('the front matter, described by one schema', () => {
  it('is where the known keys come from (Solon\'s primary is accepted, not ours)', () => {
    expect([...KNOWN_KEYS, 'primary']).toEqual(Object.keys(FRONT_MATTER_SCHEMA.properties));
    for (const key of Object.keys(FRONT_MATTER_SCHEMA.properties)) expect(ACCEPTED_KEYS).toContain(key);
  });

  it('gives every key a checked shape: none is left to a reader of its own ({} would take anything)', () => {
    const unchecked = Object.entries(FRONT_MATTER_SCHEMA.properties).filter(([, schema]) => checksOf(schema).length === 0);
    expect(unchecked.map(([key]) => key)).toEqual([]);
  });

  it('builds a definition from any value of any key, or refuses it naming the key as the file spells it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ACCEPTED_KEYS), value, (key, given) => {
        let outcome: unknown;
        try {
          outcome = buildDefinition({ name: 'x', description: 'd', [key]: given }, 'You are x.', {
            origin: { source: 'dir', file: '/x/x.md' },
            holder: 'front matter',
            promptLabel: 'the body',
          });
        } catch (error) {
          outcome = error;
        }
        if (outcome instanceof DefinitionError) {
          expect(names(outcome.reason, key), `${key}: ${JSON.stringify(given)} -> ${outcome.reason}`).toBe(true);
        } else {
          // Built, not thrown at by a converter that met a shape the schema let through.
          expect(outcome, `${key}: ${JSON.stringify(given)}`).toHaveProperty('systemPrompt', 'You are x.');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('words a value that does not fit with the key as the file spells it', () => {
    expect(reasonOf('token_budget: 0\n')).toBe('"token_budget" must be a positive integer (tokens), got the number 0');
    expect(reasonOf('steps: 2.5\n')).toBe('"steps" must be a positive integer, got the number 2.5');
    expect(reasonOf('color: "  "\n')).toBe('"color" must be a colour name or "#rrggbb" (a non-empty string, quoted when it starts with #), got the string "  "');
    expect(reasonOf('model: ""\n')).toBe('"model" must be a model name (a non-empty string), got the string ""');
    expect(reasonOf('enabled: 1\n')).toBe('"enabled" must be true or false, got the number 1');
  });

  it('words a nested value by its path, a rule in Solon\'s spelling with the keys it was written with', () => {
    expect(reasonOf('permissionRules:\n  - { toolName: bash, behavior: maybe }\n')).toBe(
      'Invalid permission rule in "permissionRules" at index 0: "behavior" must be one of allow, deny, ask, got the string "maybe"',
    );
    expect(reasonOf('permissionRules:\n  - { tool: bash, action: deny }\n  - { tool: bash }\n')).toBe('Invalid permission rule in "permissionRules" at index 1 has no "action"');
    expect(reasonOf('settings: { topP: 2 }\n')).toBe('"settings": topP must be a number from 0 to 1, got 2');
    expect(reasonOf('settings: { top_p: 0.5 }\n')).toBe('"settings": unknown key "top_p" (allowed: temperature, topP, maxTokens, toolChoice, parallelToolCalls, contextWindow)');
    expect(reasonOf('tool_choice: { name: 3 }\n')).toBe('"tool_choice": "name" must be the name of the tool to call, got the number 3');
    expect(reasonOf('skills: "style, ../etc"\n')).toMatch(/^"skills" must be skill names separated by commas/);
  });

  it('refuses what one key says and another contradicts', () => {
    expect(reasonOf('temperature: 0.2\nsettings: { topP: 0.5 }\n')).toBe('give model settings either as "settings" or as their own keys (temperature, top_p...), not both');
  });

  it('reads null as absent, as everywhere in front matter', () => {
    expect(reasonOf('model:\nmaxSteps:\nhidden:\n')).toBe('loaded');
  });
});
