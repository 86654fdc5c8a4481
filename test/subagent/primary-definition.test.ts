import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentManager, defineAgent, UnknownAgentError, type AgentDefinition } from '../../src/subagent/index.js';
import { agentFile, TempDir } from './temp-agents.js';

// The registry side of `mode: primary` (Solon, opencode): the definition of the main agent.

let temp: TempDir;
beforeEach(async () => { temp = await TempDir.create(); });
afterEach(() => temp.remove());

function manager(): AgentManager {
  return new AgentManager({
    dirs: [
      { path: temp.join('workspace'), source: 'workspace' },
      { path: temp.join('user'), source: 'user' },
    ],
  });
}

const names = (defs: readonly AgentDefinition[]): string[] => defs.map((d) => d.name);
const code = (name: string, mode?: 'primary' | 'all' | 'subagent') =>
  defineAgent({ name, description: `The ${name} agent.`, systemPrompt: `You are ${name}.`, ...(mode ? { mode } : {}) });

describe('a mode: primary definition', () => {
  beforeEach(() => temp.write({
    'workspace/lead.md': agentFile('lead', 'mode: primary\ntools: pi\nmaxSteps: 9\n'),
    'workspace/helper.md': agentFile('helper'),
  }));

  it('is the primary, synchronously, before anything was loaded', () => {
    const primary = manager().primary();
    expect(primary).toMatchObject({ name: 'lead', mode: 'primary', source: 'workspace', tools: ['read', 'write', 'edit', 'bash'], maxSteps: 9 });
  });

  it('is not a subagent: not listed, not callable, not found by get', async () => {
    const agents = manager();
    expect(names(agents.list())).toEqual(['helper']);
    expect(names(agents.enabled())).toEqual(['helper']);
    expect(agents.get('lead')).toBeUndefined();
    expect(() => agents.require('lead')).toThrow(UnknownAgentError);
    expect(agents.diagnostics()).toEqual([]);
  });

  it('still holds its name: addIfAbsent does not add a subagent of that name', () => {
    const agents = manager();
    expect(agents.addIfAbsent(code('lead'))).toBe(false);
    expect(agents.primary()?.source).toBe('workspace');
  });
});

describe('choosing the primary', () => {
  it('has none when no definition asks to be it', async () => {
    await temp.write({ 'workspace/helper.md': agentFile('helper', 'mode: subagent\n') });
    expect(manager().primary()).toBeUndefined();
  });

  it('mode: all is both the primary and a subagent', async () => {
    await temp.write({ 'workspace/both.md': agentFile('both', 'mode: all\n') });
    const agents = manager();
    expect(agents.primary()?.name).toBe('both');
    expect(names(await agents.list())).toEqual(['both']);
    expect(await agents.get('both')).toBe(agents.primary());
  });

  it('takes the first in discovery order; a second primary is not used, a second all stays a subagent', async () => {
    await temp.write({
      'workspace/b-lead.md': agentFile('b-lead', 'mode: primary\n'),
      'workspace/c-both.md': agentFile('c-both', 'mode: all\n'),
      'user/a-lead.md': agentFile('a-lead', 'primary: true\n'),
    });
    const agents = manager();
    expect(agents.primary()?.name).toBe('b-lead');
    expect(names(await agents.list())).toEqual(['c-both']);
    const winner = temp.join('workspace', 'b-lead.md');
    expect(await agents.diagnostics()).toEqual([
      {
        file: temp.join('workspace', 'c-both.md'),
        reason: `agent "c-both" asks to define the main agent (mode: all), but there is one main agent and "b-lead" (${winner}) already defines it; it is still offered as a subagent. Keep "mode: primary" in one definition only`,
      },
      {
        file: temp.join('user', 'a-lead.md'),
        reason: `agent "a-lead" asks to define the main agent (mode: primary), but there is one main agent and "b-lead" (${winner}) already defines it; it is not used. Keep "mode: primary" in one definition only`,
      },
    ]);
  });

  it('skips a disabled candidate', async () => {
    await temp.write({
      'workspace/a-off.md': agentFile('a-off', 'mode: primary\nenabled: false\n'),
      'workspace/b-on.md': agentFile('b-on', 'mode: primary\n'),
    });
    const agents = manager();
    expect(agents.primary()?.name).toBe('b-on');
    expect(await agents.diagnostics()).toEqual([]);
  });

  it('prefers a definition added in code to discovered files; a second one in code gets a diagnostic', async () => {
    await temp.write({ 'workspace/file-lead.md': agentFile('file-lead', 'mode: primary\n') });
    const agents = manager();
    expect(agents.primary()?.name).toBe('file-lead');
    agents.add(code('code-lead', 'primary'));
    agents.add(code('late-lead', 'primary'));
    expect(agents.primary()?.name).toBe('code-lead');
    expect((await agents.diagnostics()).map((d) => [d.file, d.reason.slice(0, 60)])).toEqual([
      ['agent "late-lead" (runtime)', 'agent "late-lead" asks to define the main agent (mode: prima'],
      [temp.join('workspace', 'file-lead.md'), 'agent "file-lead" asks to define the main agent (mode: prima'],
    ]);
  });

  it('follows add: replacing the primary by name with a subagent leaves none', async () => {
    await temp.write({ 'workspace/lead.md': agentFile('lead', 'mode: primary\n') });
    const agents = manager();
    agents.add(code('lead'));
    expect(agents.primary()).toBeUndefined();
    expect((await agents.get('lead'))?.source).toBe('runtime');
  });
});
