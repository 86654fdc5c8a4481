import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentManager, DefinitionError, defineAgent, UnknownAgentError, type AgentDefinition } from '../../src/subagent/index.js';
import { agentFile, TempDir } from './temp-agents.js';

let temp: TempDir;
beforeEach(async () => {
  temp = await TempDir.create();
  await temp.write({
    'agents/zeta.md': agentFile('zeta'),
    'agents/alpha.md': agentFile('alpha'),
    'agents/secret.md': agentFile('secret', 'hidden: true\n'),
    'agents/off.md': agentFile('off', 'enabled: false\n'),
    'agents/broken.md': '---\nname: broken\n---\nno description\n',
  });
});
afterEach(async () => { await temp.remove(); });

function manager(knownTools?: readonly string[]): AgentManager {
  return new AgentManager({ dirs: [{ path: temp.join('agents'), source: 'workspace' }], ...(knownTools ? { knownTools } : {}) });
}

const names = (defs: readonly AgentDefinition[]): string[] => defs.map((d) => d.name);

describe('AgentManager', () => {
  it('lists the visible definitions sorted by name, leaving out hidden and disabled ones', async () => {
    expect(names(await manager().list())).toEqual(['alpha', 'zeta']);
  });

  it('gets hidden and disabled definitions by name', async () => {
    const agents = manager();
    expect((await agents.get('secret'))?.hidden).toBe(true);
    expect((await agents.get('off'))?.enabled).toBe(false);
    expect(await agents.get('nobody')).toBeUndefined();
  });

  it('reports invalid files as diagnostics', async () => {
    expect(await manager().diagnostics()).toEqual([{ file: temp.join('agents', 'broken.md'), reason: 'front matter has no "description"' }]);
  });

  it('require throws UnknownAgentError naming the agent and listing the visible agents', async () => {
    const agents = manager();
    expect(agents.require('alpha')).toMatchObject({ name: 'alpha' });
    let error: unknown;
    try {
      agents.require('nobody');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownAgentError);
    expect(error).toMatchObject({ name: 'UnknownAgentError', agentName: 'nobody', available: ['alpha', 'zeta'] });
    expect((error as Error).message).toBe('unknown agent "nobody"; available agents: alpha, zeta');
  });

  it('says so when no agent is available', async () => {
    const agents = new AgentManager({ dirs: [] });
    expect(() => agents.require('x')).toThrow('unknown agent "x"; no agents are available');
  });

  it('add replaces a discovered definition, before or after loading', async () => {
    const before = manager();
    before.add(defineAgent({ name: 'alpha', description: 'Replaced early.', systemPrompt: 'p' }));
    expect((await before.get('alpha'))?.description).toBe('Replaced early.');

    const after = manager();
    await after.load();
    after.add(defineAgent({ name: 'alpha', description: 'Replaced late.', systemPrompt: 'p' }));
    after.add(defineAgent({ name: 'alpha', description: 'Replaced again.', systemPrompt: 'p' }));
    expect((await after.get('alpha'))?.description).toBe('Replaced again.');
    expect(names(await after.list())).toEqual(['alpha', 'zeta']);
  });

  it('addIfAbsent keeps what exists and reports whether it added', async () => {
    const agents = manager();
    await agents.load();
    expect(agents.addIfAbsent(defineAgent({ name: 'alpha', description: 'Ignored.', systemPrompt: 'p' }))).toBe(false);
    expect((await agents.get('alpha'))?.source).toBe('workspace');
    expect(agents.addIfAbsent(defineAgent({ name: 'beta', description: 'New.', systemPrompt: 'p' }))).toBe(true);
    expect(agents.addIfAbsent(defineAgent({ name: 'beta', description: 'Second.', systemPrompt: 'p' }))).toBe(false);
    expect((await agents.get('beta'))?.description).toBe('New.');
    expect(names(await agents.list())).toEqual(['alpha', 'beta', 'zeta']);
  });

  it('addIfAbsent before discovery reads the folders first, so a file of that name is kept', async () => {
    const agents = manager();
    expect(agents.addIfAbsent(defineAgent({ name: 'zeta', description: 'Code first.', systemPrompt: 'p' }))).toBe(false);
    expect(await agents.get('zeta')).toMatchObject({ source: 'workspace', file: temp.join('agents', 'zeta.md') });
    expect(agents.addIfAbsent(defineAgent({ name: 'new', description: 'Code only.', systemPrompt: 'p' }))).toBe(true);
    expect((await agents.get('new'))?.description).toBe('Code only.');
  });

  it('add before discovery still wins over a file of that name', async () => {
    const agents = manager();
    agents.add(defineAgent({ name: 'zeta', description: 'Code wins.', systemPrompt: 'p' }));
    expect((await agents.get('zeta'))?.description).toBe('Code wins.');
    expect(names(await agents.list())).toEqual(['alpha', 'zeta']);
  });

  it('reads the folders once: concurrent calls agree, and a file written later is not seen', async () => {
    const agents = manager();
    const [a, b] = await Promise.all([agents.get('alpha'), agents.get('alpha'), agents.load()]);
    expect(a).toBeDefined();
    expect(a).toBe(b);
    await temp.write({ 'agents/late.md': agentFile('late') });
    expect(await agents.get('late')).toBeUndefined();
    expect(await manager().get('late')).toBeDefined();
  });

  it('validates and completes plain definition objects passed to add', async () => {
    const agents = manager();
    agents.add({ name: 'plain', description: 'd', systemPrompt: ' p ', source: 'runtime' } as unknown as AgentDefinition);
    expect(await agents.get('plain')).toMatchObject({ systemPrompt: 'p', hidden: false, enabled: true, permissionRules: [], extra: {} });
    expect(() => agents.add({ name: 'bad', description: 'd', systemPrompt: 'p', source: 'web' } as unknown as AgentDefinition))
      .toThrow(DefinitionError);
    expect(() => agents.add({ name: 'bad', description: 'd', systemPrompt: 'p', source: 'runtime', hidden: 'no' } as unknown as AgentDefinition))
      .toThrow(/"hidden" must be true or false/);
  });

  it('keeps a definition built by this module as the same object', async () => {
    const agents = manager();
    const def = defineAgent({ name: 'same', description: 'd', systemPrompt: 'p' });
    agents.add(def);
    expect(await agents.get('same')).toBe(def);
  });

  it('warns about unknown tools in tools (they only narrow) but still loads the definition', async () => {
    await temp.write({ 'agents/typo.md': agentFile('typo', 'tools: [read, grpe, "*"]\ndisallowedTools: read\n') });
    const agents = manager(['read', 'grep', 'bash']);
    expect((await agents.get('typo'))?.tools).toEqual(['read', 'grpe', '*']);
    const toolDiagnostics = (await agents.diagnostics()).filter((d) => d.reason.startsWith('unknown tool'));
    expect(toolDiagnostics).toEqual([
      { file: temp.join('agents', 'typo.md'), reason: 'unknown tool "grpe"; known tools: bash, grep, read' },
    ]);
  });

  it('checks tools of added definitions, and forgets the warning when the definition is replaced', async () => {
    const agents = manager(['read']);
    agents.add(defineAgent({ name: 'coder', description: 'd', systemPrompt: 'p', tools: ['read', 'writ'] }));
    expect((await agents.diagnostics()).filter((d) => d.reason.startsWith('unknown tool'))).toEqual([
      { file: 'agent "coder" (runtime)', reason: 'unknown tool "writ"; known tools: read' },
    ]);
    agents.add(defineAgent({ name: 'coder', description: 'd', systemPrompt: 'p', tools: ['read'] }));
    expect((await agents.diagnostics()).filter((d) => d.reason.startsWith('unknown tool'))).toEqual([]);
  });

  it('does not check tools when knownTools is not given', async () => {
    await temp.write({ 'agents/typo.md': agentFile('typo', 'tools: [grpe]\n') });
    expect((await manager().diagnostics()).some((d) => d.reason.startsWith('unknown tool'))).toBe(false);
  });
});
