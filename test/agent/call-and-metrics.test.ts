import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { RunEndEvent } from '../../src/events/agent-event.js';
import { terminalRunEnd } from '../../src/events/operators/terminal-run-end.js';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { ScriptedModel, type ScriptedReply } from '../../src/model/scripted-model.js';
import type { Tool, ToolContext } from '../../src/tools/tool.js';
import { outcomeOf, typesOf } from '../support/collect.js';
import { estimateUsage, FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, wraps } from '../support/collect-events.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { echoTool } from '../support/test-tools.js';

/** Calls `echo` once, then answers with what the tool said: the same for every run. */
function echoThenAnswer(request: ChatRequest): ScriptedReply {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: `The tool said "${last.content}".`, usage: { promptTokens: 20, completionTokens: 6 } };
  return { text: 'Let me check.', toolCalls: [{ name: 'echo', args: { text: 'ping' } }], usage: { promptTokens: 10, completionTokens: 4 } };
}

/** Emits a Plan event through its context and records whether the run was streamed. */
function spyTool(): Tool & { contexts: ToolContext[] } {
  const contexts: ToolContext[] = [];
  return {
    name: 'spy',
    description: 'Watches.',
    parameters: { type: 'object' },
    contexts,
    execute: (_args, context) => {
      contexts.push(context);
      context.emit({ type: 'Plan', runId: context.runId, agentName: context.agentName, todos: [] });
      return 'seen';
    },
  };
}

describe('call()', () => {
  const offline = offlineEnginePerTest();

  it('resolves the same text as stream()\'s RunEnd, as a RunResult with the run\'s ids, steps and metrics', async () => {
    const agent = new ReActAgent({ model: new ScriptedModel(echoThenAnswer), tools: [echoTool()] });
    const streamed = await lastValueFrom(agent.stream('Ping it', { sessionId: 'streamed' }).pipe(terminalRunEnd()));
    const result = await agent.call('Ping it', { sessionId: 'called' });
    expect(result.text).toBe('The tool said "echo: ping".');
    expect(result.text).toBe(streamed.text);
    expect(Object.keys(result).sort()).toEqual(['abnormal', 'metrics', 'runId', 'sessionId', 'steps', 'text']);
    expect(result).toMatchObject({ sessionId: 'called', abnormal: false, steps: 2 });
    expect(result.runId).toMatch(/^run_/);
    expect(result.runId).not.toBe(streamed.runId);
    expect(result.metrics).toEqual({ ...streamed.metrics, durationMs: result.metrics.durationMs });
  });

  it('makes up a fresh session id when none is given', async () => {
    const agent = new ReActAgent({ model: new ScriptedModel(() => ({ text: 'hi' })) });
    const [a, b] = [await agent.call('one'), await agent.call('two')];
    expect(a.sessionId).toMatch(/^ses_/);
    expect(b.sessionId).toMatch(/^ses_/);
    expect(a.sessionId).not.toBe(b.sessionId);
  });

  it('runs tools unstreamed: their context says so, and what they emit goes nowhere', async () => {
    const spy = spyTool();
    const model = new ScriptedModel([{ toolCalls: [{ name: 'spy', args: {} }] }, { text: 'done' }]);
    const result = await new ReActAgent({ model, tools: [spy] }).call('watch');
    expect(result.text).toBe('done');
    expect(spy.contexts.map((c) => c.streaming)).toEqual([false]);
  });

  it('a run that is not streamed (what call() and a task under call() run) emits the lifecycle only: no ReasonDelta, nothing a tool emits', async () => {
    const spy = spyTool();
    const script: ScriptedReply[] = [{ thinking: 'hm', text: 'Looking.', toolCalls: [{ name: 'spy', args: {} }] }, { text: 'done' }];
    const agent = new ReActAgent({ model: new ScriptedModel([...script, ...script]), tools: [spy] });
    const loud = await outcomeOf(agent.stream('watch'));
    const quiet = await outcomeOf(agent.run$('watch', { streaming: false }));
    expect(typesOf(loud.values)).toContain('ReasonDelta');
    expect(typesOf(loud.values)).toContain('Plan');
    expect(typesOf(quiet.values)).toEqual(typesOf(loud.values).filter((t) => t !== 'ReasonDelta' && t !== 'Plan'));
    expect(spy.contexts.map((c) => c.streaming)).toEqual([true, false]);
  });

  it('asks the model for no deltas under call(), its children too; stream() asks for them, and both end with the same text', async () => {
    const o = await offline(
      {
        main: (t) => (t.step === 1 ? { toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'look', description: 'look' } }] } : { text: `saw: ${t.toolResults.at(-1)?.slice(0, 40)}` }),
        worker: () => ({ text: 'the child found it' }),
      },
      [testAgent('worker')],
    );
    const called = await o.engine.call('go');
    const calledRequests = o.model.requests.splice(0);
    const streamed = await collect(o.engine.stream('go'));
    expect(calledRequests.map((r) => [r.sender?.agentName, r.deltas])).toEqual([['main', false], ['worker', false], ['main', false]]);
    expect(o.model.requests.map((r) => [r.sender?.agentName, r.deltas])).toEqual([['main', undefined], ['worker', undefined], ['main', undefined]]);
    // Streamed, the child's text still arrives as deltas, wrapped.
    expect(wraps(streamed).some((w) => w.event.type === 'ReasonDelta')).toBe(true);
    expect(streamed.at(-1)).toMatchObject({ type: 'RunEnd', text: called.text });
  });
});

describe('metrics', () => {
  it('sums usage over the steps of a run', async () => {
    const agent = new ReActAgent({ model: new ScriptedModel(echoThenAnswer), tools: [echoTool()] });
    const result = await agent.call('Ping it');
    expect(result.metrics).toMatchObject({ promptTokens: 30, completionTokens: 10, totalTokens: 40, tasks: 0 });
  });

  it('durationMs is the run\'s time: a run whose model waits 50 ms reports 50 (fake timers and clock: no time passes but what the test lets pass)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] });
    try {
      const model = new ScriptedModel([{ text: 'late', delayMs: 50 }]);
      const result = new ReActAgent({ model }).call('wait');
      await vi.advanceTimersByTimeAsync(50);
      expect((await result).metrics.durationMs).toBe(50);
    } finally {
      vi.useRealTimers();
    }
  });

  describe('against the fake server', () => {
    let server: FakeOpenAIServer | undefined;
    afterEach(async () => {
      await server?.close();
    });

    it('adds up exactly the usage the server reported for each request', async () => {
      server = await FakeOpenAIServer.start({
        replies: [
          { toolCalls: [{ name: 'echo', arguments: { text: 'one' } }] },
          { text: 'Again.', toolCalls: [{ name: 'echo', arguments: { text: 'two' } }] },
          { text: 'Both echoed.' },
        ],
      });
      const agent = new ReActAgent({ model: openAIModelFor(server), tools: [echoTool()] });
      const { values } = await outcomeOf(agent.stream('Echo twice'));
      const end = values.at(-1) as RunEndEvent;
      const reported = server.requests.map((r) => estimateUsage(r.body, r.reply!));
      expect(server.requests).toHaveLength(3);
      expect(end.steps).toBe(3);
      expect(end.metrics).toMatchObject({
        promptTokens: reported.reduce((n, u) => n + u.prompt_tokens, 0),
        completionTokens: reported.reduce((n, u) => n + u.completion_tokens, 0),
        totalTokens: reported.reduce((n, u) => n + u.total_tokens, 0),
      });
      // Not a coincidence of one request: every request contributed.
      expect(reported.every((u) => u.prompt_tokens > 0)).toBe(true);
    });

    it('counts nothing for a response without usage, and still counts the others', async () => {
      server = await FakeOpenAIServer.start({
        replies: [
          { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }], usage: false },
          { text: 'ok', usage: { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 } },
        ],
      });
      const result = await new ReActAgent({ model: openAIModelFor(server), tools: [echoTool()] }).call('go');
      expect(result.metrics).toMatchObject({ promptTokens: 7, completionTokens: 1, totalTokens: 8 });
    });
  });
});
