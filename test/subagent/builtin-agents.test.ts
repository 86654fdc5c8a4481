import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentManager, builtinAgentsDir, standardAgentDirs } from '../../src/subagent/index.js';

const TOOLS = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo', 'task', 'multitask', 'generate'];

describe('built-in agents', () => {
  it('resolve to the shipped folder', () => {
    expect(existsSync(join(builtinAgentsDir(), 'general.md'))).toBe(true);
  });

  it('load with no diagnostics; git-summary is hidden', async () => {
    const agents = new AgentManager({ dirs: [{ path: builtinAgentsDir(), source: 'builtin' }], knownTools: TOOLS });
    expect(await agents.diagnostics()).toEqual([]);
    expect((await agents.list()).map((a) => a.name)).toEqual(['bash', 'explore', 'general', 'plan']);
    const summary = await agents.get('git-summary');
    expect(summary).toMatchObject({ hidden: true, enabled: true, source: 'builtin', tools: ['bash', 'read'] });
  });

  it('give each agent the tools its role needs', async () => {
    const agents = new AgentManager({ dirs: [{ path: builtinAgentsDir(), source: 'builtin' }] });
    expect((await agents.require('general')).tools).toBeUndefined();
    expect((await agents.require('explore')).tools).toEqual(['read', 'list', 'glob', 'grep']);
    expect((await agents.require('bash')).tools).toEqual(['list', 'read', 'bash']);
    const plan = await agents.require('plan');
    expect(plan.tools).not.toContain('write');
    expect(plan.tools).not.toContain('edit');
    // A read-only agent's prompt says so, as its tools do: the model must not try to write.
    for (const name of ['explore', 'plan']) expect(agents.require(name).systemPrompt).toMatch(/read-only|never (edit|change|modif)/i);
    for (const agent of agents.list()) expect(agent.description).toMatch(/^[A-Z].*\.$/); // a sentence the parent's model reads
  });
});

describe('standardAgentDirs', () => {
  it('lists built-ins, workspace, user, then extra folders', () => {
    expect(standardAgentDirs({ workspace: '/repo', home: '/home/u', agentDirs: ['team-agents', '/opt/agents'] })).toEqual([
      { path: builtinAgentsDir(), source: 'builtin' },
      { path: '/repo/.rxharness/agents', source: 'workspace', within: '/repo' },
      { path: '/home/u/.rxharness/agents', source: 'user' },
      { path: '/repo/team-agents', source: 'dir' },
      { path: '/opt/agents', source: 'dir' },
    ]);
  });
});
