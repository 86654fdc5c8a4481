import { describe, expect, it } from 'vitest';
import { DefinitionError, parseAgentMarkdown } from '../../src/subagent/index.js';

const FILE = '/repo/.rxharness/agents/x.md';
const origin = { source: 'workspace', file: FILE } as const;

function md(front: string, body = 'You are a helper.'): string {
  return `---\n${front}\n---\n${body}\n`;
}

function parseError(text: string): DefinitionError {
  try {
    parseAgentMarkdown(text, origin);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError');
}

describe('parseAgentMarkdown', () => {
  it('reads every known key and applies defaults', () => {
    const def = parseAgentMarkdown(md('name: reviewer\ndescription: Reviews code.', '\n  You review code.\n\n'), origin);
    expect(def).toEqual({
      name: 'reviewer',
      description: 'Reviews code.',
      systemPrompt: 'You review code.',
      hidden: false,
      enabled: true,
      permissionRules: [],
      source: 'workspace',
      file: FILE,
      extra: {},
    });
    expect(Object.isFrozen(def)).toBe(true);
  });

  it('accepts tools as a comma string, trimmed, empties dropped', () => {
    const def = parseAgentMarkdown(md('name: a\ndescription: d\ntools: read, grep ,, glob,\ndisallowedTools: bash'), origin);
    expect(def.tools).toEqual(['read', 'grep', 'glob']);
    expect(def.disallowedTools).toEqual(['bash']);
  });

  it('accepts tools as a YAML list, flow or block', () => {
    const flow = parseAgentMarkdown(md('name: a\ndescription: d\ntools: [read, " grep ", ""]'), origin);
    expect(flow.tools).toEqual(['read', 'grep']);
    const block = parseAgentMarkdown(md('name: a\ndescription: d\ndisallowedTools:\n  - write\n  - edit'), origin);
    expect(block.disallowedTools).toEqual(['write', 'edit']);
    expect(block.tools).toBeUndefined();
  });

  it('keeps an empty tools list (meaning every tool) distinct from an absent one', () => {
    expect(parseAgentMarkdown(md('name: a\ndescription: d\ntools: []'), origin).tools).toEqual([]);
    expect(parseAgentMarkdown(md('name: a\ndescription: d\ntools:'), origin).tools).toBeUndefined();
  });

  it('reads model, maxSteps, hidden and enabled', () => {
    const def = parseAgentMarkdown(md('name: a\ndescription: d\nmodel: fast\nmaxSteps: 12\nhidden: true\nenabled: false'), origin);
    expect(def).toMatchObject({ model: 'fast', maxSteps: 12, hidden: true, enabled: false });
  });

  it('requires a name in the front matter and never falls back to the file name', () => {
    const error = parseError(md('description: d'));
    expect(error.message).toBe(`${FILE}: front matter has no "name"`);
    expect(error.file).toBe(FILE);
    expect(error.reason).toBe('front matter has no "name"');
    expect(error.name).toBe('DefinitionError');
  });

  it('refuses names outside [a-zA-Z0-9_-] and non-string names', () => {
    expect(parseError(md('name: my agent\ndescription: d')).message).toMatch(/"name" must contain only letters, digits/);
    expect(parseError(md('name: 7\ndescription: d')).message).toMatch(/"name" must be a string, got the number 7 \(put it in quotes\)/);
  });

  it('requires a description', () => {
    expect(parseError(md('name: a')).reason).toBe('front matter has no "description"');
    expect(parseError(md('name: a\ndescription: "   "')).reason).toBe('"description" is empty');
  });

  it('requires a non-empty body', () => {
    expect(parseError(md('name: a\ndescription: d', '   \n\n')).reason).toMatch(/body .* is empty/);
    expect(parseError('---\nname: a\ndescription: d\n---').reason).toMatch(/body .* is empty/);
  });

  it('reports bad YAML with the line in the file', () => {
    const error = parseError('---\nname: a\ndescription: [unclosed\ntools: read\n---\nbody');
    expect(error.message).toMatch(new RegExp(`^${FILE}: invalid YAML in front matter at line \\d+`));
    expect(error.line).toBe(4);
    expect(error.message).toContain('line 4');
  });

  it('reports a duplicated key at its own line', () => {
    const error = parseError('---\nname: a\ndescription: d\nname: b\n---\nbody');
    expect(error.line).toBe(4);
    expect(error.reason).toMatch(/duplicated mapping key/);
  });

  it('refuses front matter that is not a mapping', () => {
    expect(parseError('---\n- a\n- b\n---\nbody').reason).toMatch(/must be a YAML mapping .* got a list/);
    expect(parseError('---\njust text\n---\nbody').reason).toMatch(/got the string "just text"/);
  });

  it('treats empty or comment-only front matter as having no keys', () => {
    expect(parseError('---\n---\nbody').reason).toBe('front matter has no "name"');
    expect(parseError('---\n# only a comment\n\n---\nbody').reason).toBe('front matter has no "name"');
  });

  it('refuses a file without front matter, or with unclosed front matter', () => {
    expect(parseError('# Reviewer\nYou review code.').reason).toMatch(/has no front matter: the file must start with a "---" line/);
    expect(parseError('\n---\nname: a\n---\nbody').reason).toMatch(/has no front matter/);
    expect(parseError('---\nname: a\ndescription: d\nbody').reason).toMatch(/front matter is not closed/);
  });

  it('keeps unknown keys in extra', () => {
    const def = parseAgentMarkdown(md('name: a\ndescription: d\nisolation: worktree\nskills: [x, y]\nteamName: qa'), origin);
    expect(def.extra).toEqual({ isolation: 'worktree', teamName: 'qa' });
    // `skills` is a key of ours now (docs/definitions.md, "Skills").
    expect(def.skills).toEqual(['x', 'y']);
  });

  it.each([
    ['maxSteps: 0', /"maxSteps" must be a positive integer, got the number 0/],
    ['maxSteps: -3', /"maxSteps" must be a positive integer, got the number -3/],
    ['maxSteps: "12"', /"maxSteps" must be a positive integer, got the string "12"/],
    ['maxSteps: 1.5', /"maxSteps" must be a positive integer, got the number 1.5/],
    ['hidden: "yes"', /"hidden" must be true or false, got the string "yes"/],
    ['hidden: yes', /"hidden" must be true or false, got the string "yes"/],
    ['enabled: 1', /"enabled" must be true or false, got the number 1/],
    ['model: 3', /"model" must be a model name/],
    ['model: ""', /"model" must be a model name/],
    ['tools: 3', /"tools" must be a list of tool names or a comma-separated string, got the number 3/],
    ['tools: [read, 3]', /"tools" item 2 must be a tool name \(a string\), got the number 3/],
    ['disallowedTools: {a: 1}', /"disallowedTools" must be a list .* got a mapping/],
    ['description: [a]', /"description" must be a string, got a list$/],
  ])('refuses %s', (line, message) => {
    const front = line.startsWith('description') ? `name: a\n${line}` : `name: a\ndescription: d\n${line}`;
    const error = parseError(md(front));
    expect(error.message.startsWith(`${FILE}: `)).toBe(true);
    expect(error.reason).toMatch(message);
  });

  it('tolerates CRLF line endings and normalises the body', () => {
    const def = parseAgentMarkdown('---\r\nname: a\r\ndescription: d\r\ntools: read, grep\r\n---\r\nLine one.\r\nLine two.\r\n', origin);
    expect(def.name).toBe('a');
    expect(def.tools).toEqual(['read', 'grep']);
    expect(def.systemPrompt).toBe('Line one.\nLine two.');
  });

  it('tolerates a byte-order mark', () => {
    expect(parseAgentMarkdown(`\uFEFF${md('name: a\ndescription: d')}`, origin).name).toBe('a');
  });

  it('reads valid permission rules', () => {
    const def = parseAgentMarkdown(
      md('name: a\ndescription: d\npermissionRules:\n  - { tool: bash, action: deny }\n  - { tool: read, action: allow, pattern: "src/**", priority: 5 }'),
      origin,
    );
    expect(def.permissionRules).toEqual([
      { tool: 'bash', action: 'deny' },
      { tool: 'read', action: 'allow', pattern: 'src/**', priority: 5 },
    ]);
  });

  it('refuses invalid permission rules with a message naming the key and the rule', () => {
    const badAction = parseError(md('name: a\ndescription: d\npermissionRules:\n  - { tool: bash, action: maybe }'));
    expect(badAction.message).toMatch(new RegExp(`^${FILE}: .*"permissionRules" at index 0: "action" must be one of allow, deny, ask`));
    const notList = parseError(md('name: a\ndescription: d\npermissionRules: deny'));
    expect(notList.reason).toMatch(/"permissionRules".*expected an array of rules/);
  });

  it('labels errors without a file by the agent name', () => {
    expect(() => parseAgentMarkdown(md('name: a'), { source: 'runtime' })).toThrow('agent "a": front matter has no "description"');
    expect(() => parseAgentMarkdown('no front matter', { source: 'runtime' })).toThrow(/^agent definition: has no front matter/);
  });

  it('does not read a "---" line in the body as part of the front matter', () => {
    const def = parseAgentMarkdown(md('name: a\ndescription: d', 'Intro\n---\nname: other'), origin);
    expect(def.name).toBe('a');
    expect(def.systemPrompt).toBe('Intro\n---\nname: other');
  });
});
