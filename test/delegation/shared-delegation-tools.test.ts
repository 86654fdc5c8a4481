import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { testAgent } from '../support/agent-turns.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import type { ScriptedRoute } from '../support/scripted-routes.js';

// Every run of one agent spec (the main agent's) shares the delegation tools made at its
// first run (src/delegation/agent-factory.ts). What could go wrong with that is per-run state
// leaking between runs, or an agent list frozen at the first run: these pin both down.

const offline = offlineEnginePerTest();

/** The main agent delegates its prompt to `slow` once, then answers with the task's result. */
const delegating: ScriptedRoute = (turn) =>
  turn.step === 1
    ? { toolCalls: [{ name: 'task', args: { agent_name: 'slow', prompt: `work for ${turn.prompt}`, description: 'slow work' } }] }
    : { text: `main got: ${turn.toolResults.at(-1) ?? ''}` };
const slow: ScriptedRoute = (turn) => ({ text: `done: ${turn.prompt}`, delayMs: 100 });

const alphaSaying = (description: string) => defineAgent({ name: 'alpha', description, systemPrompt: 'You are alpha.' });

type Schema = { properties: Record<string, { enum?: string[] }> };
const offeredAgents = (request: { readonly tools?: readonly { readonly name: string; readonly parameters: JsonObject }[] }): string[] =>
  (request.tools!.find((t) => t.name === 'task')!.parameters as unknown as Schema).properties['agent_name']!.enum!;

/** Two runs of the main agent, each with its `slow` child started (virtual time from here on). */
async function twoRunsDelegating() {
  const o = await offline({ main: delegating, slow }, [testAgent('slow')]);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  const engine = o.engine;
  const first = engine.start('run one');
  const second = engine.start('run two');
  await vi.advanceTimersByTimeAsync(10);
  return { engine, first, second };
}

describe('delegation tools shared by the runs of one agent', () => {
  it("cancelling one run's task reaches only that run's child; the other run's task goes on", async () => {
    const { engine, first, second } = await twoRunsDelegating();
    const tasks = engine.tasks.list();
    expect(tasks.map((t) => t.parentRunId).sort()).toEqual([first.runId, second.runId].sort());
    const ofFirst = tasks.find((t) => t.parentRunId === first.runId)!;
    expect(engine.cancelTask(ofFirst.taskId)).toBe(true);
    await vi.advanceTimersByTimeAsync(200);
    const [one, two] = await Promise.all([first.result, second.result]);
    expect(one.text).toContain('<result_status>failure</result_status>');
    expect(one.text).not.toContain('done: work for');
    expect(two.text).toContain('done: work for run two');
    expect(engine.tasks.get(ofFirst.taskId)?.state).toBe('cancelled');
  });

  it('cancelling one run stops only its own child', async () => {
    const { first, second } = await twoRunsDelegating();
    first.cancel();
    await expect(first.result).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(200);
    expect((await second.result).text).toContain('done: work for run two');
  });

  it('a later run offers the agents that exist then, not those of the first run', async () => {
    const o = await offline({ '*': () => ({ text: 'ok' }) }, [testAgent('alpha')]);
    await o.engine.start('first').result;
    o.engine.agents.add(testAgent('beta'));
    await o.engine.start('second').result;
    expect(offeredAgents(o.model.requests[0]!)).not.toContain('beta');
    expect(offeredAgents(o.model.requests[1]!)).toContain('beta');
  });

  it('a definition replaced under the same name shows in the next descriptions of task and multitask', async () => {
    const o = await offline({ '*': () => ({ text: 'ok' }) }, [alphaSaying('Alpha, first of its name.')]);
    await o.engine.start('first').result;
    o.engine.agents.add(alphaSaying('Alpha, second of its name.'));
    await o.engine.start('second').result;
    const described = (request: number, tool: string) => o.model.requests[request]!.tools!.find((t) => t.name === tool)!.description;
    for (const tool of ['task', 'multitask']) {
      expect(described(0, tool)).toContain('Alpha, first of its name.');
      expect(described(1, tool)).toContain('Alpha, second of its name.');
      expect(described(1, tool)).not.toContain('Alpha, first of its name.');
    }
  });

  it("a later run's prompt lists the agents that exist then, and the date of its day", async () => {
    const o = await offline({ '*': () => ({ text: 'ok' }) }, [testAgent('alpha')]);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-05-06T23:59:00Z'));
    await o.engine.start('first').result;
    await o.engine.start('same day').result;
    o.engine.agents.add(alphaSaying('Alpha, replaced.'));
    vi.setSystemTime(new Date('2031-05-07T00:01:00Z'));
    await o.engine.start('next day').result;
    const system = (request: number) => o.model.requests[request]!.messages.find((m) => m.role === 'system')!.content;
    expect(system(0)).toContain('Date: 2031-05-06');
    expect(system(0)).toContain('Test agent alpha.');
    expect(system(1)).toBe(system(0));
    expect(system(2)).toContain('Date: 2031-05-07');
    expect(system(2)).toContain('Alpha, replaced.');
    expect(system(2)).not.toContain('Test agent alpha.');
  });

  it("a child's prompt is its role and the facts of the day its run starts, the same for the children of one day", async () => {
    const o = await offline({ main: delegating, slow: () => ({ text: 'done' }) }, [testAgent('slow')]);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-05-06T23:59:00Z'));
    await o.engine.start('first').result;
    await o.engine.start('same day').result;
    vi.setSystemTime(new Date('2031-05-07T00:01:00Z'));
    await o.engine.start('next day').result;
    const children = o.model.requests.filter((r) => r.messages.some((m) => m.role === 'user' && m.content?.startsWith('work for')));
    const system = (i: number) => children[i]!.messages.find((m) => m.role === 'system')!.content!;
    expect(children).toHaveLength(3);
    expect(system(0)).toMatch(/^You are slow, a test agent\.[\s\S]*\n\n# Environment\n[\s\S]*Date: 2031-05-06$/);
    expect(system(1)).toBe(system(0));
    expect(system(2)).toBe(system(0).replace('2031-05-06', '2031-05-07'));
  });

  it('more roles than the factory keeps (64): each child still gets its own, also after the keep starts over', async () => {
    const names = Array.from({ length: 70 }, (_, i) => `agent${i}`);
    const byName: ScriptedRoute = (turn) =>
      turn.step === 1 ? { toolCalls: [{ name: 'task', args: { agent_name: turn.prompt, prompt: `work for ${turn.prompt}`, description: 'work' } }] } : { text: 'ok' };
    const o = await offline({ main: byName, '*': () => ({ text: 'done' }) }, names.map((name) => testAgent(name)));
    // twice round: the second round comes after the keep started over, and asks in the same order
    for (const name of [...names, ...names]) await o.engine.start(name).result;
    const children = o.model.requests.filter((r) => r.messages.some((m) => m.role === 'user' && m.content?.startsWith('work for')));
    expect(children).toHaveLength(140);
    children.forEach((child, i) => {
      const system = child.messages.find((m) => m.role === 'system')!.content!;
      expect(system.startsWith(`You are ${names[i % 70]!}, a test agent.`)).toBe(true);
      expect(system).toBe(children[i % 70]!.messages.find((m) => m.role === 'system')!.content);
    });
  });

  it("an agent run directly gets its own tools: its rules decide whom its task may name, not the main agent's", async () => {
    const lead = testAgent('lead', { tools: ['task'], permissionRules: [{ tool: 'task', action: 'deny', pattern: 'alpha' }] });
    const o = await offline({ '*': () => ({ text: 'ok' }) }, [testAgent('alpha'), lead], { maxDepth: 2 });
    await o.engine.start('main first').result;
    await o.engine.start('lead', { agentName: 'lead' }).result;
    await o.engine.start('main again').result;
    const [mainFirst, ofLead, mainAgain] = o.model.requests;
    expect(offeredAgents(mainFirst!)).toContain('alpha');
    expect(offeredAgents(ofLead!)).not.toContain('alpha');
    expect(ofLead!.tools!.map((t) => t.name)).toEqual(['task']);
    expect(offeredAgents(mainAgain!)).toEqual(offeredAgents(mainFirst!));
  });
});
