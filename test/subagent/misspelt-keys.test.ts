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
    ['disallowed_tools: [bash]\n', 'disallowed_tools', 'disallowedTools', 'the tools it was meant to lose'],
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
});

describe('other misspelt keys load, with a warning in the diagnostics', () => {
  let dir: TempDir;
  afterEach(() => dir.remove());

  it('names the key and what was probably meant; far-off keys stay silent extras', async () => {
    dir = await TempDir.create();
    await dir.write({
      'typo.md': agentFile('typo', 'maxStep: 3\nhiden: true\ncolor: blue\n'),
      'skip.md': agentFile('skip', 'tool: read\n'),
    });
    const manager = new AgentManager({ dirs: [{ path: dir.path, source: 'dir' }] });
    expect((await manager.get('typo'))?.extra).toEqual({ maxStep: 3, hiden: true, color: 'blue' });
    expect(await manager.get('skip')).toBeUndefined();
    expect(await manager.diagnostics()).toEqual([
      { file: dir.join('skip.md'), reason: expect.stringMatching(/^unknown key "tool"; did you mean "tools"\?/) },
      { file: dir.join('typo.md'), reason: 'unknown key "maxStep" is ignored; did you mean "maxSteps"?' },
      { file: dir.join('typo.md'), reason: 'unknown key "hiden" is ignored; did you mean "hidden"?' },
    ]);
  });
});
