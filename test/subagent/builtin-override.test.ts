import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentManager, defineAgent, standardAgentDirs } from '../../src/subagent/index.js';
import { agentFile, TempDir } from './temp-agents.js';

// A file with a built-in's name replaces it only when it says `override: true`.

let temp: TempDir;
beforeEach(async () => { temp = await TempDir.create(); });
afterEach(() => temp.remove());

const workspaceFile = (name: string) => temp.join('repo', '.rxharness', 'agents', `${name}.md`);
const userFile = (name: string) => temp.join('home', '.rxharness', 'agents', `${name}.md`);

function manager(): AgentManager {
  return new AgentManager({ dirs: standardAgentDirs({ workspace: temp.join('repo'), home: temp.join('home'), agentDirs: ['team'] }) });
}

const ignored = (name: string) =>
  `agent "${name}" is a built-in agent; this file is ignored. Add "override: true" to its front matter to replace the built-in, or give it another name`;

describe('a file named like a built-in agent', () => {
  it('without override is ignored, and the diagnostic says how to replace the built-in', async () => {
    await temp.write({ 'repo/.rxharness/agents/explore.md': agentFile('explore', 'tools: [read]\n') });
    const agents = manager();
    expect(await agents.get('explore')).toMatchObject({ source: 'builtin', tools: ['read', 'list', 'glob', 'grep'] });
    expect(await agents.diagnostics()).toEqual([{ file: workspaceFile('explore'), reason: ignored('explore') }]);
  });

  it('with override: false is ignored the same way', async () => {
    await temp.write({ 'home/.rxharness/agents/plan.md': agentFile('plan', 'override: false\n') });
    const agents = manager();
    expect((await agents.get('plan'))?.source).toBe('builtin');
    expect(await agents.diagnostics()).toEqual([{ file: userFile('plan'), reason: ignored('plan') }]);
  });

  it('with override: true replaces the built-in, and a diagnostic says so', async () => {
    await temp.write({ 'repo/.rxharness/agents/explore.md': agentFile('explore', 'override: true\ntools: [read]\n') });
    const agents = manager();
    expect(await agents.get('explore')).toMatchObject({ source: 'workspace', override: true, tools: ['read'], systemPrompt: 'You are explore.' });
    expect((await agents.list()).filter((a) => a.name === 'explore')).toHaveLength(1);
    expect(await agents.diagnostics()).toEqual([{ file: workspaceFile('explore'), reason: 'replaces the built-in agent "explore" (override: true)' }]);
  });

  it('the first overriding file wins; an ignored one does not count', async () => {
    await temp.write({
      'repo/.rxharness/agents/general.md': agentFile('general'),
      'home/.rxharness/agents/general.md': agentFile('general', 'override: true\n'),
      'repo/team/general.md': agentFile('general', 'override: true\n'),
    });
    const agents = manager();
    expect((await agents.get('general'))?.file).toBe(userFile('general'));
    expect(await agents.diagnostics()).toEqual([
      { file: workspaceFile('general'), reason: ignored('general') },
      { file: userFile('general'), reason: 'replaces the built-in agent "general" (override: true)' },
      {
        file: temp.join('repo', 'team', 'general.md'),
        reason: `agent "general" is already defined by ${userFile('general')}; the first definition wins, this one is ignored`,
      },
    ]);
  });

  it('override: true on a name no built-in has loads, with a diagnostic pointing at the name', async () => {
    await temp.write({ 'repo/.rxharness/agents/explorer.md': agentFile('explorer', 'override: true\n') });
    const agents = manager();
    expect((await agents.get('explorer'))?.source).toBe('workspace');
    expect((await agents.get('explore'))?.source).toBe('builtin');
    expect(await agents.diagnostics()).toEqual([
      { file: workspaceFile('explorer'), reason: '"override: true" has no effect: there is no built-in agent "explorer" to replace (check the name)' },
    ]);
  });

  it('in code, add replaces a built-in without override and addIfAbsent never does', async () => {
    const agents = manager();
    expect(agents.addIfAbsent({ ...(await agents.require('bash')), source: 'runtime', override: true })).toBe(false);
    expect((await agents.get('bash'))?.source).toBe('builtin');
    agents.add(defineAgent({ name: 'bash', description: 'Mine.', systemPrompt: 'p' }));
    expect(await agents.get('bash')).toMatchObject({ source: 'runtime', description: 'Mine.' });
    expect(await agents.diagnostics()).toEqual([]);
  });
});
