import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { startDelegationFixture, turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { echoTool } from '../support/test-tools.js';

let f: DelegationFixture;
afterEach(() => f.close());

const callEcho = { toolCalls: [{ name: 'lookup', arguments: { text: 'ticket 42' } }] };

describe('engine.createSubagent(definition): a builder the application customises before running it', () => {
  it('offers a tool added to the builder to the child model, and runs it', async () => {
    f = await startDelegationFixture({ reviewer: steps(callEcho) });
    const lookup = echoTool('lookup');
    const engine = f.engine();
    const reviewer = engine.createSubagent(testAgent('reviewer', { tools: ['read', 'grep'] })).withTool(lookup).build();
    const result = await reviewer.call('review it');
    expect(turnOf(f.requestsOf('reviewer')[0]!).toolNames).toEqual(['read', 'grep', 'lookup']);
    expect(lookup.calls.map((c) => c.args)).toEqual([{ text: 'ticket 42' }]);
    expect(lookup.calls[0]!.context.agentName).toBe('reviewer');
    expect(result.text).toBe('final: echo: ticket 42');
    // Not registered: `task` cannot name it, and the main agent's tools did not change.
    expect(engine.agents.get('reviewer')).toBeUndefined();
  });

  it('sends settings set on the builder over the definition\'s own, and honours its step limit', async () => {
    f = await startDelegationFixture({ reviewer: () => callEcho });
    const definition = testAgent('reviewer', { settings: { topP: 0.5, temperature: 1 } });
    const reviewer = f.engine().createSubagent(definition).withTool(echoTool('lookup')).withSettings({ temperature: 0.25, maxTokens: 77 }).withMaxSteps(2).build();
    const events = await collect(reviewer.stream('review it'));
    const bodies = f.requestsOf('reviewer').map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ temperature: 0.25, top_p: 0.5, max_tokens: 77 });
    // The last allowed step offers no tools.
    expect(turnOf(f.requestsOf('reviewer')[1]!).toolNames).toEqual([]);
    expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
  });

  it('replaces the instructions, and a change made after build() does not reach the built agent', async () => {
    f = await startDelegationFixture({ custom: () => ({ text: 'done' }), reviewer: () => ({ text: 'done' }) });
    const builder = f.engine().createSubagent(testAgent('reviewer')).withInstructions('You are custom, a test agent. Be brief.');
    const first = builder.build();
    builder.withSettings({ temperature: 0.9 });
    await first.call('go');
    const request = f.requestsOf('custom')[0]!;
    expect(String(request.body.messages![0]!.content)).toMatch(/^You are custom, a test agent\. Be brief\./);
    expect((request.body as Record<string, unknown>)['temperature']).toBeUndefined();
  });

  it('refuses a tool the engine disables or the definition disallows, and bad settings, naming them', async () => {
    f = await startDelegationFixture();
    const engine = f.engine({ disabledTools: ['lookup'] });
    const builder = engine.createSubagent(testAgent('reviewer', { disallowedTools: ['shout'] }));
    expect(() => builder.withTool(echoTool('lookup'))).toThrow(/"lookup" is taken away by the engine's disabledTools/);
    expect(() => builder.withTool(echoTool('shout'))).toThrow(/"shout" is taken away by the disallowedTools of agent "reviewer"/);
    expect(() => builder.withSettings({ temperature: 5 })).toThrow(/temperature/);
    expect(() => builder.withMaxSteps(0)).toThrow(/positive integer/);
  });

  it('fails the run of a built agent after the engine is closed', async () => {
    f = await startDelegationFixture({ reviewer: () => ({ text: 'done' }) });
    const engine = f.engine();
    const reviewer = engine.createSubagent(testAgent('reviewer')).build();
    await engine.close();
    await expect(reviewer.call('go')).rejects.toThrow(/closed/);
    expect(f.requestsOf('reviewer')).toEqual([]);
  });
});
