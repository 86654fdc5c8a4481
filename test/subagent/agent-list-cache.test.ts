import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentManager, defineAgent, type AgentDefinition } from '../../src/subagent/index.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { agentFile, TempDir } from './temp-agents.js';

// AgentManager keeps its sorted list of enabled definitions until one is added or discovered
// (every step of every run reads it). What could go wrong: a stale list, or a list shared
// with a caller who changes it.

let temp: TempDir;
beforeEach(async () => {
  temp = await TempDir.create();
  await temp.write({ 'agents/zeta.md': agentFile('zeta'), 'agents/alpha.md': agentFile('alpha') });
});
afterEach(async () => {
  await temp.remove();
});

const names = (defs: readonly AgentDefinition[]): string[] => defs.map((d) => d.name);
const manager = () => new AgentManager({ dirs: [{ path: temp.join('agents'), source: 'workspace' }] });

describe('AgentManager: the enabled list, kept between changes', () => {
  it('an added definition shows at once, in order; one added in place of another replaces it', () => {
    const agents = manager();
    expect(names(agents.enabled())).toEqual(['alpha', 'zeta']);
    agents.add(defineAgent({ name: 'mid', description: 'Mid.', systemPrompt: 'You are mid.' }));
    expect(names(agents.list())).toEqual(['alpha', 'mid', 'zeta']);
    agents.add(defineAgent({ name: 'mid', description: 'Mid, now off.', systemPrompt: 'You are mid.', enabled: false }));
    expect(names(agents.enabled())).toEqual(['alpha', 'zeta']);
    agents.add(defineAgent({ name: 'alpha', description: 'Alpha, replaced.', systemPrompt: 'You are alpha.' }));
    expect(agents.enabled()[0]!.description).toBe('Alpha, replaced.');
  });

  it('a caller changing its list changes nobody else’s', () => {
    const agents = manager();
    const mine = agents.enabled();
    mine.reverse().push(defineAgent({ name: 'intruder', description: 'No.', systemPrompt: 'No.' }));
    expect(names(agents.enabled())).toEqual(['alpha', 'zeta']);
    expect(agents.list()).not.toBe(agents.list());
  });

  it('discovery on first use counts: a list asked before anything else has the files', () => {
    const agents = manager();
    agents.add(defineAgent({ name: 'coded', description: 'Coded.', systemPrompt: 'You are coded.' }));
    expect(names(agents.enabled())).toEqual(['alpha', 'coded', 'zeta']);
  });

  it('every definition it lists is frozen (which is why the list may be kept)', () => {
    const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: temp.path, home: temp.join('home') }) });
    agents.add(defineAgent({ name: 'coded', description: 'Coded.', systemPrompt: 'You are coded.' }));
    const all = agents.enabled();
    expect(all.length).toBeGreaterThan(2); // the built-ins too
    for (const definition of all) expect(Object.isFrozen(definition), definition.name).toBe(true);
  });
});
