import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/subagent/define-agent.js';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { generateReply, parseTaskResult } from '../support/lifecycle-script.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';

// A save under .rxharness/ asks, as a write there does: a human approves it here.
const APPROVED = { approve: () => ({ decision: 'approve' as const }) };

let f: DelegationFixture;
afterEach(() => f.close());

const POET = { name: 'poet', description: 'Writes short poems.', system_prompt: testAgentPrompt('poet') };
const agentFile = (name: string): string => join(f.workspace.dir, '.rxharness', 'agents', `${name}.md`);

/** The fields a definition file carries (not where it came from). */
const fieldsOf = ({ source: _s, file: _f, ...fields }: AgentDefinition) => fields;

/** Runs the main agent through one `generate` call and returns that call's ToolCallEnd. */
async function generate(engine: HarnessEngine, args: Record<string, unknown>) {
  f.route({ main: steps(generateReply(args)) });
  const events = await collect(engine.stream('make an agent'));
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  return own(events, 'ToolCallEnd').find((e) => e.toolName === 'generate')!;
}

describe('generate', () => {
  it('registers an agent that task can run at once: the server sees its system prompt', async () => {
    f = await startDelegationFixture({
      main: steps(generateReply(POET), taskReply('poet', 'a haiku about rain')),
      poet: (turn) => ({ text: `poem for: ${turn.prompt}` }),
    });
    const engine = f.engine(APPROVED);
    const events = await collect(engine.stream('write me a poem'));
    const [made, delegated] = own(events, 'ToolCallEnd');
    expect(made).toMatchObject({ toolName: 'generate' });
    expect(made!.error).toBeUndefined();
    expect(made!.text).toContain('Created agent "poet"');
    expect(parseTaskResult(delegated!.text)).toMatchObject({ agentName: 'poet', status: 'success', content: 'poem for: a haiku about rain' });
    const [request] = f.requestsOf('poet');
    expect(request!.body.messages![0]).toMatchObject({ role: 'system', content: expect.stringContaining(testAgentPrompt('poet')) });
    expect(await engine.agents.get('poet')).toMatchObject({ description: POET.description, source: 'runtime' });
    expect((await engine.agents.list()).map((a) => a.name)).toContain('poet');
    // Without save_to_file nothing is written.
    await expect(stat(agentFile('poet'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the next step of the same run offers task and multitask with the new agent listed', async () => {
    f = await startDelegationFixture({
      main: steps(generateReply(POET), taskReply('poet', 'a haiku')),
      poet: () => ({ text: 'rain' }),
    });
    await collect(f.engine(APPROVED).stream('write me a poem'));
    const described = (step: number, tool: string): string => {
      const spec = f.requestsOf('main')[step]!.body.tools!.find((t) => t.function?.name === tool);
      return spec!.function!.description!;
    };
    for (const tool of ['task', 'multitask']) {
      expect(described(0, tool)).not.toContain('poet');
      expect(described(1, tool)).toContain(`poet: ${POET.description}`);
    }
  });

  it('save_to_file writes .rxharness/agents/<name>.md, which a new engine discovers with the same fields', async () => {
    f = await startDelegationFixture();
    const first = f.engine(APPROVED);
    const end = await generate(first, { ...POET, tools: ['read', 'grep'], save_to_file: true });
    expect(end.error).toBeUndefined();
    expect(end.text).toContain(agentFile('poet'));
    const created = (await first.agents.get('poet'))!;

    const second = f.engine(APPROVED);
    const found = (await second.agents.get('poet'))!;
    expect(found).toMatchObject({ source: 'workspace', file: agentFile('poet') });
    expect(fieldsOf(found)).toEqual(fieldsOf(created));
    expect(found.tools).toEqual(['read', 'grep']);
    expect((await second.agents.diagnostics()).filter((d) => d.file === agentFile('poet'))).toEqual([]);
  });

  it('the new definition copies general\'s settings, and a run of it uses them', async () => {
    f = await startDelegationFixture({
      main: steps(generateReply(POET), taskReply('poet', 'go')),
      poet: (turn) => ({ text: `tools: ${turn.toolNames.join(',')}` }),
    });
    const general = defineAgent({
      name: 'general',
      description: 'A custom general agent.',
      systemPrompt: 'You are general.',
      tools: ['read', 'write', 'bash', 'grep'],
      disallowedTools: ['bash'],
      model: 'fast',
      maxSteps: 7,
      permissionRules: [{ tool: 'write', action: 'deny', pattern: 'secret/**' }],
    });
    const engine = f.engine({ ...APPROVED, models: { fast: f.model('fast-model') } }, [general]);
    const events = await collect(engine.stream('go'));
    const poet = (await engine.agents.get('poet'))!;
    expect(poet).toMatchObject({
      systemPrompt: POET.system_prompt,
      description: POET.description,
      tools: ['read', 'write', 'bash', 'grep'],
      disallowedTools: ['bash'],
      model: 'fast',
      maxSteps: 7,
      permissionRules: [{ tool: 'write', action: 'deny', pattern: 'secret/**' }],
    });
    const [request] = f.requestsOf('poet');
    expect(request!.body.model).toBe('fast-model');
    expect(parseTaskResult(own(events, 'ToolCallEnd')[1]!.text).content).toBe('tools: read,write,grep');
  });

  it('given tools replace general\'s; the built-in general leaves every setting open', async () => {
    f = await startDelegationFixture();
    const engine = f.engine(APPROVED);
    await generate(engine, { ...POET, name: 'reader', tools: ['read'] });
    await generate(engine, POET);
    expect(await engine.agents.get('reader')).toMatchObject({ tools: ['read'], permissionRules: [] });
    const poet = (await engine.agents.get('poet'))!;
    expect([poet.tools, poet.disallowedTools, poet.model, poet.maxSteps]).toEqual([undefined, undefined, undefined, undefined]);
  });

  describe('refusals (an error result; nothing registered, overwritten or written)', () => {
    it('a built-in name', async () => {
      f = await startDelegationFixture();
      const engine = f.engine(APPROVED);
      const before = (await engine.agents.get('explore'))!;
      const end = await generate(engine, { ...POET, name: 'explore', save_to_file: true });
      expect(end.error).toMatch(/an agent named "explore" already exists; choose another name/);
      expect(end.text).toMatch(/^ERROR: generate: /);
      expect(await engine.agents.get('explore')).toBe(before);
      await expect(stat(agentFile('explore'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('a second generate of the same name, in the same engine and in a new one: the saved file stays as it was', async () => {
      f = await startDelegationFixture();
      const engine = f.engine(APPROVED);
      await generate(engine, { ...POET, save_to_file: true });
      const saved = await readFile(agentFile('poet'), 'utf8');
      const original = await engine.agents.get('poet');

      const again = await generate(engine, { ...POET, description: 'Another poet.', system_prompt: 'Different.', save_to_file: true });
      expect(again.error).toMatch(/already exists/);
      expect(await engine.agents.get('poet')).toBe(original);
      expect(await readFile(agentFile('poet'), 'utf8')).toBe(saved);

      const fresh = f.engine(APPROVED);
      const clash = await generate(fresh, { ...POET, system_prompt: 'Different.', save_to_file: true });
      expect(clash.error).toMatch(/already exists/);
      expect((await fresh.agents.get('poet'))?.source).toBe('workspace');
      expect(await readFile(agentFile('poet'), 'utf8')).toBe(saved);
    });

    it('save_to_file where a file of that name is already there (an invalid one, skipped by discovery)', async () => {
      f = await startDelegationFixture();
      await f.workspace.file('.rxharness/agents/poet.md', 'not a definition\n');
      const engine = f.engine(APPROVED);
      const end = await generate(engine, { ...POET, save_to_file: true });
      expect(end.error).toMatch(new RegExp(`^could not save ${agentFile('poet').replaceAll('.', '\\.')}, so no agent was created: .*EEXIST`));
      expect(await engine.agents.get('poet')).toBeUndefined();
      expect(await readFile(agentFile('poet'), 'utf8')).toBe('not a definition\n');
    });

    it.each([
      ['a space', 'bad name'],
      ['a path', '../evil'],
      ['a dot', 'poet.v2'],
      ['an empty name', ''],
    ])('an invalid name (%s)', async (_label, name) => {
      f = await startDelegationFixture();
      const engine = f.engine(APPROVED);
      const end = await generate(engine, { ...POET, name, save_to_file: true });
      expect(end.error).toBe(`"${name}" is not a valid agent name: use only letters, digits, "_" and "-".`);
      expect(await engine.agents.get(name)).toBeUndefined();
      await expect(stat(join(f.workspace.dir, '.rxharness'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('an unknown tool, listing the known tools', async () => {
      f = await startDelegationFixture();
      const engine = f.engine(APPROVED);
      const end = await generate(engine, { ...POET, tools: ['read', 'teleport', 'fly'], save_to_file: true });
      expect(end.error).toMatch(/^unknown tool "teleport", "fly"; known tools: /);
      for (const known of ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo', 'task', 'multitask', 'generate']) {
        expect(end.error).toMatch(new RegExp(`known tools: .*\\b${known}\\b`));
      }
      expect(await engine.agents.get('poet')).toBeUndefined();
      await expect(stat(agentFile('poet'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('reaches the model as a tool message starting with ERROR:, and the run goes on', async () => {
      f = await startDelegationFixture();
      const engine = f.engine(APPROVED);
      await generate(engine, { ...POET, name: 'bad name' });
      const second = f.requestsOf('main')[1]!;
      const tool = second.body.messages!.find((m) => m.role === 'tool');
      expect(tool?.content).toMatch(/^ERROR: generate: "bad name" is not a valid agent name/);
    });
  });
});

describe('generate with skills (Solon dialect)', () => {
  it('keeps the skills as given: a known one reaches the new agent\'s prompt, an unknown one is a Warning, not a failure', async () => {
    f = await startDelegationFixture({
      main: steps(generateReply({ ...POET, skills: ['meter', 'ghost'] }), taskReply('poet', 'a haiku')),
      poet: () => ({ text: 'rain' }),
    });
    const { mkdir, writeFile } = await import('node:fs/promises');
    const skillDir = join(f.home, '.rxharness', 'skills', 'meter');
    await mkdir(skillDir, { recursive: true });
    await writeFile(join(skillDir, 'SKILL.md'), '---\nname: meter\ndescription: Counts syllables.\n---\nFive, seven, five.\n');
    const engine = f.engine(APPROVED);
    const events = await collect(engine.stream('write me a poem'));
    const made = own(events, 'ToolCallEnd').find((e) => e.toolName === 'generate')!;
    expect(made.error).toBeUndefined();
    expect(made.text).toMatch(/Created agent "poet".*unknown skill "ghost"/s);
    expect(own(events, 'Warning').map((w) => w.code)).toContain('unknown-skill');
    expect(engine.agents.get('poet')?.skills).toEqual(['meter', 'ghost']);
    const [request] = f.requestsOf('poet');
    expect(request!.body.messages![0]!.content).toContain('Five, seven, five.');
  });
});
