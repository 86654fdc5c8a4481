import { afterEach, describe, expect, it } from 'vitest';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { DefinitionError } from '../../src/subagent/definition-error.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { agentFile, TempDir } from './temp-agents.js';

const parse = (extra: string) => () => parseAgentMarkdown(agentFile('typo', extra), { source: 'dir', file: '/x/typo.md' });

describe('a misspelt key that would widen the agent', () => {
  it.each([
    ['tool: read, grep\n', 'tool', 'tools', 'every tool its parent has'],
    ['Tools: [read]\n', 'Tools', 'tools', 'every tool its parent has'],
    ['allowedTools: [read]\n', 'allowedTools', 'tools', 'every tool its parent has'],
    ['disalowedTools: [bash]\n', 'disalowedTools', 'disallowedTools', 'the tools it was meant to lose'],
    ['disallowed-tools: [bash]\n', 'disallowed-tools', 'disallowedTools', 'the tools it was meant to lose'],
    // A slip in another framework's spelling is caught too, and named in that spelling.
    ['disallowed_tool: [bash]\n', 'disallowed_tool', 'disallowed_tools', 'the tools it was meant to lose'],
    ['permisionRules:\n  - { tool: bash, action: deny }\n', 'permisionRules', 'permissionRules', 'none of the rules meant to restrict it'],
  ])('%j is refused with a did-you-mean', (extra, key, meant, consequence) => {
    let error: unknown;
    try {
      parse(extra)();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).reason).toBe(
      `unknown key "${key}"; did you mean "${meant}"? Without "${meant}" the agent would get ${consequence}, so it is not loaded`,
    );
  });

  it('loads when the real key is there too (the typo widens nothing)', () => {
    expect(parse('tools: [read]\ntool: [bash]\n')().tools).toEqual(['read']);
  });

  it('counts another framework\'s spelling of the real key as the real key', () => {
    const def = parse('disallowed_tools: [bash]\ndisalowedTools: [write]\n')();
    expect(def.disallowedTools).toEqual(['bash']);
    expect(def.extra).toEqual({ disalowedTools: ['write'] });
  });
});

describe('other misspelt keys load, with a warning in the diagnostics', () => {
  let dir: TempDir;
  afterEach(() => dir.remove());

  it('names the key and what was probably meant; far-off keys stay silent extras', async () => {
    dir = await TempDir.create();
    await dir.write({
      'typo.md': agentFile('typo', 'maxStep: 3\nhiden: true\nisolation: worktree\nmax_turn: 4\n'),
      'skip.md': agentFile('skip', 'tool: read\n'),
    });
    const manager = new AgentManager({ dirs: [{ path: dir.path, source: 'dir' }] });
    expect((await manager.get('typo'))?.extra).toEqual({ maxStep: 3, hiden: true, isolation: 'worktree', max_turn: 4 });
    expect(await manager.get('skip')).toBeUndefined();
    expect(await manager.diagnostics()).toEqual([
      { file: dir.join('skip.md'), reason: expect.stringMatching(/^unknown key "tool"; did you mean "tools"\?/) },
      { file: dir.join('typo.md'), reason: 'unknown key "maxStep" is ignored; did you mean "maxSteps"?' },
      { file: dir.join('typo.md'), reason: 'unknown key "hiden" is ignored; did you mean "hidden"?' },
      { file: dir.join('typo.md'), reason: 'unknown key "max_turn" is ignored; did you mean "max_turns"?' },
    ]);
  });

  it('does not flag the other frameworks\' spellings we accept', async () => {
    dir = await TempDir.create();
    await dir.write({
      'h9.md': agentFile('h9', 'disallowed_tools: write, edit\nmax_turns: 30\n'),
      'cc.md': agentFile('cc', 'maxTurns: 5\ncolor: cyan\n'),
      'oc.md': agentFile('oc', 'steps: 7\nmode: all\ntemperature: 0.2\ntop_p: 0.9\n'),
      'solon.md': agentFile('solon', 'primary: false\ntools: [pi, ls]\n'),
    });
    const manager = new AgentManager({ dirs: [{ path: dir.path, source: 'dir' }] });
    expect(await manager.diagnostics()).toEqual([]);
    for (const name of ['h9', 'cc', 'oc', 'solon']) expect((await manager.get(name))?.extra).toEqual({});
  });
});
