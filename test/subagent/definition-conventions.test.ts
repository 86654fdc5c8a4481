import { describe, expect, it } from 'vitest';
import { AgentManager, DefinitionError, defineAgent, formatAgentMarkdown, parseAgentMarkdown } from '../../src/subagent/index.js';
import { agentFile, TempDir } from './temp-agents.js';

// Definition files as other frameworks write them (Solon, harness9, opencode, Claude Code).

const origin = { source: 'workspace', file: '/repo/.rxharness/agents/a.md' } as const;
const parse = (extra: string) => parseAgentMarkdown(agentFile('a', extra), origin);

function reasonOf(extra: string): string {
  try {
    parse(extra);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).reason;
  }
  throw new Error('expected the definition to be refused');
}

describe('tool-set aliases (Solon)', () => {
  it.each([
    ['tools: pi', ['read', 'write', 'edit', 'bash']],
    ['tools: "**"', ['**']],
    ['tools: "*"', ['*']],
    ['tools: [edit]', ['edit', 'read', 'write']],
    ['tools: [grep, edit, read]', ['grep', 'edit', 'read', 'write']],
    ['tools: [ls, grep]', ['list', 'grep']],
    ['tools: [grep, pi, read, ls, list]', ['grep', 'read', 'write', 'edit', 'bash', 'list']],
    ['tools: read, glob', ['read', 'glob']],
  ])('%s gives %j', (line, tools) => {
    expect(parse(`${line}\n`).tools).toEqual(tools);
  });

  it('expands them in disallowedTools too, where edit takes nothing with it', () => {
    expect(parse('disallowedTools: [pi]\n').disallowedTools).toEqual(['read', 'write', 'edit', 'bash']);
    expect(parse('disallowedTools: [edit]\n').disallowedTools).toEqual(['edit']);
  });

  it('leaves unknown names as they are (the manager reports them)', () => {
    expect(parse('tools: [Read, read_file, pie]\n').tools).toEqual(['Read', 'read_file', 'pie']);
  });

  it('an unknown name stays a diagnostic; one differing only in case gets a did-you-mean', async () => {
    const dir = await TempDir.create();
    try {
      await dir.write({ 'a.md': agentFile('a', 'tools: [Read, ls, pi, fly]\n') });
      const agents = new AgentManager({ dirs: [{ path: dir.path, source: 'dir' }], knownTools: ['bash', 'edit', 'list', 'read', 'write'] });
      expect((await agents.get('a'))?.tools).toEqual(['Read', 'list', 'read', 'write', 'edit', 'bash', 'fly']);
      const known = 'known tools: bash, edit, list, read, write';
      expect(await agents.diagnostics()).toEqual([
        { file: dir.join('a.md'), reason: `unknown tool "Read"; did you mean "read"? ${known}` },
        { file: dir.join('a.md'), reason: `unknown tool "fly"; ${known}` },
      ]);
    } finally {
      await dir.remove();
    }
  });

  it('expands in code as well, so formatting and parsing again changes nothing', () => {
    const def = defineAgent({ name: 'coder', description: 'd', systemPrompt: 'p', tools: 'pi, ls' });
    expect(def.tools).toEqual(['read', 'write', 'edit', 'bash', 'list']);
    expect(parseAgentMarkdown(formatAgentMarkdown(def), { source: 'runtime' })).toEqual(def);
  });
});

describe('other frameworks\' spellings of our keys', () => {
  it.each([
    ['disallowed_tools: write, edit', { disallowedTools: ['write', 'edit'] }],
    ['max_turns: 30', { maxSteps: 30 }],
    ['maxTurns: 5', { maxSteps: 5 }],
    ['steps: 7', { maxSteps: 7 }],
  ])('%s is read as ours and kept out of extra', (line, expected) => {
    const def = parse(`${line}\n`);
    expect(def).toMatchObject({ ...expected, extra: {} });
  });

  it('reads a harness9 file as it is', () => {
    const def = parse('tools: read, bash\ndisallowed_tools: write, edit\nmax_turns: 30\nskills: security-review\n');
    expect(def).toMatchObject({ tools: ['read', 'bash'], disallowedTools: ['write', 'edit'], maxSteps: 30, skills: ['security-review'], extra: {} });
  });

  it('names the key as the file spells it in a value error', () => {
    expect(reasonOf('max_turns: "30"\n')).toBe('"max_turns" must be a positive integer, got the string "30"');
    expect(reasonOf('disallowed_tools: 3\n')).toMatch(/^"disallowed_tools" must be a list of tool names/);
  });

  it.each([
    ['maxSteps: 3\nmax_turns: 4', '"maxSteps" and "max_turns" are two spellings of one key; keep one of them'],
    ['max_turns: 4\nmaxSteps: 3', '"max_turns" and "maxSteps" are two spellings of one key; keep one of them'],
    ['max_turns: 4\nmaxTurns: 3', '"max_turns" and "maxTurns" are two spellings of one key ("maxSteps"); keep one of them'],
    ['disallowedTools: [bash]\ndisallowed_tools: [write]', '"disallowedTools" and "disallowed_tools" are two spellings of one key; keep one of them'],
  ])('refuses both spellings of one key: %j', (lines, reason) => {
    expect(reasonOf(`${lines}\n`)).toBe(reason);
  });

  it('lets an empty spelling sit next to the other (null counts as absent)', () => {
    expect(parse('maxSteps:\nmax_turns: 4\n').maxSteps).toBe(4);
  });

  it('defineAgent keeps to our spelling: extra cannot smuggle an alias in', () => {
    expect(() => defineAgent({ name: 'a', description: 'd', systemPrompt: 'p', extra: { max_turns: 3 } })).toThrow(/"extra" cannot hold "max_turns"/);
  });
});

describe('mode, color and override', () => {
  it.each([
    ['mode: primary', 'primary'],
    ['mode: all', 'all'],
    ['mode: subagent', 'subagent'],
    ['primary: true', 'primary'],
    ['primary: false', 'subagent'],
  ])('%s gives mode %s', (line, mode) => {
    expect(parse(`${line}\n`).mode).toBe(mode);
  });

  it('leaves mode, color and override out when the file does not give them', () => {
    const def = parse('');
    expect(def).not.toHaveProperty('mode');
    expect(def).not.toHaveProperty('color');
    expect(def).not.toHaveProperty('override');
  });

  it('keeps color for UIs, trimmed', () => {
    expect(parse('color: cyan\n').color).toBe('cyan');
    expect(parse('color: "#ff8800"\n').color).toBe('#ff8800');
  });

  it.each([
    ['mode: fast', '"mode" must be "subagent", "primary" or "all", got the string "fast" (to choose a model, the key is "model")'],
    ['mode: main\nmodel: fast', '"mode" must be "subagent", "primary" or "all", got the string "main"'],
    ['mode: [primary]', '"mode" must be "subagent", "primary" or "all", got a list'],
    ['primary: "yes"', '"primary" must be true or false, got the string "yes"'],
    ['mode: primary\nprimary: true', '"mode" and "primary" say the same thing two ways (primary: true is mode: primary); keep one of them'],
    ['color: 3', '"color" must be a colour name or "#rrggbb" (a non-empty string, quoted when it starts with #), got the number 3'],
    ['override: yes', '"override" must be true or false, got the string "yes"'],
  ])('refuses %j', (lines, reason) => {
    expect(reasonOf(`${lines}\n`)).toBe(reason);
  });

  it('round-trips through formatAgentMarkdown, Solon\'s primary written as mode', () => {
    const def = parse('primary: true\ncolor: "#00ff00"\noverride: true\n');
    const written = formatAgentMarkdown(def);
    expect(written).toContain('mode: primary\n');
    expect(written).not.toContain('primary: true');
    expect(parseAgentMarkdown(written, origin)).toEqual(def);
  });

  it('defineAgent takes mode and color', () => {
    expect(defineAgent({ name: 'lead', description: 'd', systemPrompt: 'p', mode: 'primary', color: 'red' })).toMatchObject({ mode: 'primary', color: 'red' });
  });
});
