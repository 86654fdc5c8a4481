import { describe, expect, it } from 'vitest';
import { DefinitionError, defineAgent, formatAgentMarkdown, parseAgentMarkdown } from '../../src/subagent/index.js';

describe('formatAgentMarkdown', () => {
  it('round-trips a full definition through the parser', () => {
    const text = [
      '---',
      'name: reviewer',
      'description: "Reviews a change: bugs, style. Read-only."',
      'tools: read, grep, glob',
      'disallowedTools: [bash]',
      'model: fast',
      'maxSteps: 12',
      'hidden: true',
      'enabled: false',
      'permissionRules:',
      '  - { tool: bash, action: deny }',
      '  - { tool: read, action: ask, pattern: "**/.env", priority: 3 }',
      'color: blue',
      'nested: { a: [1, 2] }',
      '---',
      'You are a code reviewer.',
      '',
      '---',
      'Keep going after a rule line.',
    ].join('\n');
    const origin = { source: 'user', file: '/home/u/.rxharness/agents/reviewer.md' } as const;
    const def = parseAgentMarkdown(text, origin);
    const written = formatAgentMarkdown(def);
    expect(parseAgentMarkdown(written, origin)).toEqual(def);
    expect(written.startsWith('---\nname: reviewer\ndescription: ')).toBe(true);
  });

  it('leaves defaults out and round-trips a minimal definition', () => {
    const def = defineAgent({ name: 'min', description: 'Minimal.', systemPrompt: 'Do it.' });
    const written = formatAgentMarkdown(def);
    expect(written).toBe('---\nname: min\ndescription: Minimal.\n---\n\nDo it.\n');
    expect(parseAgentMarkdown(written, { source: 'runtime' })).toEqual(def);
  });

  it('quotes values YAML would otherwise read differently', () => {
    const def = defineAgent({ name: '123', description: 'yes', systemPrompt: 'p', model: 'true' });
    const back = parseAgentMarkdown(formatAgentMarkdown(def), { source: 'runtime' });
    expect(back).toEqual(def);
  });

  it('refuses extra values YAML cannot hold', () => {
    const def = defineAgent({ name: 'a', description: 'd', systemPrompt: 'p', extra: { fn: () => 1 } });
    expect(() => formatAgentMarkdown(def)).toThrow(DefinitionError);
    expect(() => formatAgentMarkdown(def)).toThrow(/^agent "a": cannot be written as YAML/);
  });
});

describe('defineAgent', () => {
  it('builds a validated, frozen runtime definition', () => {
    const def = defineAgent({
      name: 'reviewer',
      description: '  Reviews code. ',
      systemPrompt: '\nYou review.\n',
      tools: 'read, grep',
      disallowedTools: ['bash'],
      permissionRules: [{ tool: 'bash', action: 'deny' }],
      extra: { team: 'qa' },
    });
    expect(def).toEqual({
      name: 'reviewer',
      description: 'Reviews code.',
      systemPrompt: 'You review.',
      tools: ['read', 'grep'],
      disallowedTools: ['bash'],
      hidden: false,
      enabled: true,
      permissionRules: [{ tool: 'bash', action: 'deny' }],
      source: 'runtime',
      extra: { team: 'qa' },
    });
    expect(Object.isFrozen(def)).toBe(true);
    expect(Object.isFrozen(def.tools)).toBe(true);
  });

  it.each([
    ['a name with a space', { name: 'bad name', description: 'd', systemPrompt: 'p' }, /^agent "bad name": "name" must contain only letters/],
    ['an empty name', { name: '', description: 'd', systemPrompt: 'p' }, /^agent definition: definition has no "name"/],
    ['an empty description', { name: 'a', description: '', systemPrompt: 'p' }, /^agent "a": definition has no "description"/],
    ['a blank system prompt', { name: 'a', description: 'd', systemPrompt: '  ' }, /^agent "a": "systemPrompt" is empty/],
    ['maxSteps 0', { name: 'a', description: 'd', systemPrompt: 'p', maxSteps: 0 }, /"maxSteps" must be a positive integer/],
    ['a rule with an unknown action', { name: 'a', description: 'd', systemPrompt: 'p', permissionRules: [{ tool: 'x', action: 'nope' }] }, /"action" must be one of/],
    ['a misspelt option', { name: 'a', description: 'd', systemPrompt: 'p', maxstep: 3 }, /unknown option "maxstep"; put your own keys in "extra"/],
    ['a known key hidden in extra', { name: 'a', description: 'd', systemPrompt: 'p', extra: { tools: ['read'] } }, /"extra" cannot hold "tools"/],
  ])('refuses %s', (_what, input, message) => {
    expect(() => defineAgent(input as never)).toThrow(DefinitionError);
    expect(() => defineAgent(input as never)).toThrow(message);
  });
});
