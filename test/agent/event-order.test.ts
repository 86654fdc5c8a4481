import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent, ReasonDeltaEvent, ToolCallEndEvent, ToolCallStartEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf, typesOf } from '../support/collect.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { echoTool } from '../support/test-tools.js';
import { createTestScheduler, timeline } from '../support/virtual-time.js';

const describeEvent = (e: AgentEvent): string => (e.type === 'ReasonDelta' ? `ReasonDelta(${e.kind}:${e.text})` : e.type);

/** The checks every run must pass: one runId and agent, exactly one RunEnd, last, then completion. */
function expectWellFormed(events: readonly AgentEvent[], completed: boolean, agentName = 'main'): void {
  expect(completed).toBe(true);
  expect(events[0]?.type).toBe('RunStart');
  expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('RunEnd');
  expect(new Set(events.map((e) => e.runId)).size).toBe(1);
  expect(events.every((e) => e.agentName === agentName)).toBe(true);
  expect(JSON.parse(JSON.stringify(events))).toEqual(events);
}

describe('event order (ScriptedModel, virtual time)', () => {
  it('text-only run: RunStart, ContextSize, ReasonStart, the deltas as they stream, ReasonEnd, RunEnd, complete', () => {
    const scheduler = createTestScheduler();
    let log: string[] = [];
    scheduler.run(() => {
      const model = new ScriptedModel([{ text: 'Hello there', chunkSize: 5 }], { scheduler, chunkDelayMs: 10 });
      const agent = new ReActAgent({ model, instructions: 'Be brief.' });
      log = timeline(scheduler, agent.stream('Say hello'), describeEvent);
    });
    expect(log).toEqual([
      '0 RunStart',
      '0 ContextSize',
      '0 ReasonStart',
      '0 ReasonDelta(text:Hello)',
      '10 ReasonDelta(text: ther)',
      '20 ReasonDelta(text:e)',
      '30 ReasonEnd',
      '30 RunEnd',
      '30 |',
    ]);
  });

  it('thinking comes out as ReasonDelta kind "thinking", before the text', () => {
    const scheduler = createTestScheduler();
    let log: string[] = [];
    scheduler.run(() => {
      const model = new ScriptedModel([{ thinking: 'Hmm.', text: 'Yes.' }], { scheduler, chunkDelayMs: 1 });
      log = timeline(scheduler, new ReActAgent({ model }).stream('Well?'), describeEvent);
    });
    expect(log.filter((l) => l.includes('ReasonDelta'))).toEqual(['0 ReasonDelta(thinking:Hmm.)', '1 ReasonDelta(text:Yes.)']);
  });

  it('run with tool calls: each call a ToolCallStart/ToolCallEnd pair inside ActionStart/ActionEnd, then the next step', async () => {
    const echo = echoTool();
    const model = new ScriptedModel([
      { text: 'Checking.', toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'a' } }, { id: 'c2', name: 'echo', args: { text: 'b' } }] },
      { text: 'Done: a, b' },
    ]);
    const agent = new ReActAgent({ model, instructions: 'Use tools.', tools: [echo] });
    const { values: events, completed } = await outcomeOf(agent.stream('Echo a and b'));
    expectWellFormed(events, completed);
    expect(typesOf(events)).toEqual([
      'RunStart',
      'ContextSize',
      'ReasonStart',
      'ReasonDelta',
      'ReasonEnd',
      'ActionStart',
      'ToolCallStart',
      'ToolCallEnd',
      'ToolCallStart',
      'ToolCallEnd',
      'ActionEnd',
      'ContextSize',
      'ReasonStart',
      'ReasonDelta',
      'ReasonEnd',
      'RunEnd',
    ]);
    const toolCalls = [
      { callId: 'c1', name: 'echo', args: { text: 'a' } },
      { callId: 'c2', name: 'echo', args: { text: 'b' } },
    ];
    expect(events[4]).toMatchObject({ type: 'ReasonEnd', step: 1, text: 'Checking.', toolCalls });
    expect(events[5]).toMatchObject({ type: 'ActionStart', step: 1, toolCalls });
    const starts = events.filter((e): e is ToolCallStartEvent => e.type === 'ToolCallStart');
    const ends = events.filter((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd');
    expect(starts.map((s) => [s.step, s.callId, s.toolName, s.args])).toEqual([
      [1, 'c1', 'echo', { text: 'a' }],
      [1, 'c2', 'echo', { text: 'b' }],
    ]);
    expect(ends.map((e) => [e.step, e.callId, e.toolName, e.text, e.error])).toEqual([
      [1, 'c1', 'echo', 'echo: a', undefined],
      [1, 'c2', 'echo', 'echo: b', undefined],
    ]);
    expect(events[10]).toMatchObject({ type: 'ActionEnd', step: 1 });
    expect(events[11]).toMatchObject({ type: 'ContextSize', messageCount: 5 });
    expect(events[12]).toMatchObject({ type: 'ReasonStart', step: 2 });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', text: 'Done: a, b', abnormal: false, steps: 2 });
    expect(events.at(-1)).not.toHaveProperty('error');
    expect(model.requests[1]?.messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'Echo a and b' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'echo', arguments: '{"text":"a"}' } },
          { id: 'c2', type: 'function', function: { name: 'echo', arguments: '{"text":"b"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'echo: a' },
      { role: 'tool', tool_call_id: 'c2', content: 'echo: b' },
    ]);
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['echo']);
  });

  it('puts what a tool emits between its ToolCallStart and ToolCallEnd, and names events after the agent', async () => {
    const planner: Tool = {
      name: 'plan',
      description: 'Makes a plan.',
      parameters: { type: 'object' },
      execute: (_args, context) => {
        context.emit({ type: 'Plan', runId: context.runId, agentName: context.agentName, todos: [{ id: '1', content: 'x', status: 'pending' }] });
        return 'planned';
      },
    };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'plan', args: {} }] }, { text: 'ok' }]);
    const agent = new ReActAgent({ name: 'scout', model, tools: () => [planner], instructions: () => 'Plan first.' });
    expect(agent.name).toBe('scout');
    const { values: events, completed } = await outcomeOf(agent.stream('go'));
    expectWellFormed(events, completed, 'scout');
    const types = typesOf(events);
    expect(types.slice(types.indexOf('ToolCallStart'), types.indexOf('ToolCallEnd') + 1)).toEqual(['ToolCallStart', 'Plan', 'ToolCallEnd']);
    expect(model.requests[0]?.messages[0]).toEqual({ role: 'system', content: 'Plan first.' });
  });
});

describe('event order (real openai client against the fake server)', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('streams a tool-calling run over HTTP in the contract order, with thinking deltas', async () => {
    server = await FakeOpenAIServer.start({
      replies: [
        { thinking: 'I should echo.', chunkSize: 6, toolCalls: [{ name: 'echo', arguments: { text: 'over the wire' } }] },
        { text: 'It said: echo: over the wire', chunkSize: 8 },
      ],
    });
    const agent = new ReActAgent({ model: openAIModelFor(server), tools: [echoTool()] });
    const { values: events, completed } = await outcomeOf(agent.stream('Echo something'));
    expectWellFormed(events, completed);
    const compact = typesOf(events).filter((t, i, all) => t !== 'ReasonDelta' || all[i - 1] !== 'ReasonDelta');
    expect(compact).toEqual([
      'RunStart', 'ContextSize', 'ReasonStart', 'ReasonDelta', 'ReasonEnd',
      'ActionStart', 'ToolCallStart', 'ToolCallEnd', 'ActionEnd',
      'ContextSize', 'ReasonStart', 'ReasonDelta', 'ReasonEnd', 'RunEnd',
    ]);
    const deltas = events.filter((e): e is ReasonDeltaEvent => e.type === 'ReasonDelta');
    expect(deltas.filter((d) => d.step === 1).every((d) => d.kind === 'thinking')).toBe(true);
    expect(deltas.filter((d) => d.kind === 'thinking').map((d) => d.text).join('')).toBe('I should echo.');
    expect(deltas.filter((d) => d.step === 2).map((d) => d.text).join('')).toBe('It said: echo: over the wire');
    expect(events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ callId: 'call_0_0', text: 'echo: over the wire' });
    expect(server.requests[1]?.body.messages?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_0_0', content: 'echo: over the wire' });
  });
});
