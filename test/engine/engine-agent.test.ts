import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, record, wraps } from '../support/collect-events.js';
import { startDelegationFixture, turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

describe('engine.agent(name)', () => {
  it('runs a definition directly at depth 1: its prompt, its narrowed tools, no delegation at maxDepth 1', async () => {
    f = await startDelegationFixture({ '*': (t) => ({ text: `explored: ${t.prompt}` }) });
    const engine = f.engine();
    const explore = engine.agent('explore');
    expect(explore.name).toBe('explore');
    const events = await collect(explore.stream('where is the config read?'));
    expect(events[0]).toMatchObject({ type: 'RunStart', agentName: 'explore', prompt: 'where is the config read?' });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'explore', abnormal: false, text: 'explored: where is the config read?' });

    const [request] = f.server.requests;
    const turn = turnOf(request!);
    const definition = (await engine.agents.get('explore'))!;
    expect(turn.system.startsWith(`${definition.systemPrompt}\n\n# Environment`)).toBe(true);
    expect(turn.system).not.toContain('# Delegating to subagents');
    expect(turn.toolNames).toEqual(['read', 'list', 'glob', 'grep']);
    expect(request!.body.messages?.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('can delegate from depth 1 when maxDepth is 2, and its child cannot', async () => {
    f = await startDelegationFixture({
      alpha: (t) => ({ text: `alpha: ${t.prompt}` }),
      '*': steps(taskReply('alpha', 'nested job')), // the `general` agent
    });
    const engine = f.engine({ maxDepth: 2 }, [testAgent('alpha')]);
    const events = await collect(engine.agent('general').stream('delegate something'));
    const general = turnOf(f.server.requests[0]!);
    expect(general.toolNames).toEqual(expect.arrayContaining(['task', 'multitask']));
    expect(general.system).toContain('# Delegating to subagents');
    expect(turnOf(f.requestsOf('alpha')[0]!).toolNames).not.toContain('task');
    const wrapped = wraps(events);
    expect(wrapped[0]).toMatchObject({ parentRunId: events[0]!.runId, taskAgentName: 'alpha' });
    expect(own(events, 'RunEnd')[0]).toMatchObject({ agentName: 'general', abnormal: false });
    expect(own(events, 'RunEnd')[0]!.metrics.tasks).toBe(1);
  });

  it('returns the main agent for no name or "main"', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'main here' }) });
    const engine = f.engine();
    expect(engine.agent().name).toBe('main');
    expect(engine.agent('main')).toBe(engine.agent());
    expect((await engine.agent().call('hi')).text).toBe('main here');
  });

  it('fails an unknown name with an error listing the agents, without calling the model', async () => {
    f = await startDelegationFixture();
    const engine = f.engine({}, [testAgent('alpha'), testAgent('shy', { hidden: true })]);
    const nope = engine.agent('nope');
    await expect(nope.call('hi')).rejects.toThrow(/unknown agent "nope"\. Available agents: .*alpha: Test agent alpha\..*explore/);
    const run = record(nope.stream('hi'));
    await run.done;
    expect((run.error as Error).message).toMatch(/unknown agent "nope"/);
    expect((run.error as Error).message).not.toContain('shy');
    expect(run.events.some((e) => e.type === 'RunEnd')).toBe(false);
    expect(f.server.requests).toHaveLength(0);
  });

  it('fails a disabled agent, saying so', async () => {
    f = await startDelegationFixture();
    const engine = f.engine({}, [testAgent('off', { enabled: false })]);
    await expect(engine.agent('off').call('hi')).rejects.toThrow(/agent "off" is disabled\. Available agents:/);
  });

  it('runs a hidden agent by name', async () => {
    f = await startDelegationFixture({ shy: () => ({ text: 'shy answer' }) });
    const engine = f.engine({}, [testAgent('shy', { hidden: true })]);
    expect((await engine.agent('shy').call('hi')).text).toBe('shy answer');
  });

  it('engine.agents.addIfAbsent right after construction keeps a built-in and a workspace file', async () => {
    f = await startDelegationFixture();
    await f.workspace.file('.rxharness/agents/reviewer.md', '---\nname: reviewer\ndescription: From the file.\n---\nYou review.\n');
    const engine = f.engine();
    expect(engine.agents.addIfAbsent(testAgent('general'))).toBe(false);
    expect(engine.agents.addIfAbsent(testAgent('reviewer'))).toBe(false);
    expect(await engine.agents.get('general')).toMatchObject({ source: 'builtin' });
    expect(await engine.agents.get('reviewer')).toMatchObject({ source: 'workspace', description: 'From the file.' });
  });
});
