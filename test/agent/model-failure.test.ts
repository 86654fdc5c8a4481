import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { RunEndEvent } from '../../src/events/agent-event.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { outcomeOf, typesOf } from '../support/collect.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { echoTool } from '../support/test-tools.js';

const FAIL_NOW = { status: 500, headers: { 'retry-after-ms': '0' }, errorMessage: 'upstream exploded' } as const;

describe('a model that fails after its retries', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => {
    await server.close();
  });

  function agentWithRetries(maxRetries: number): ReActAgent {
    const model = new OpenAIChatModel({ model: 'flaky', baseURL: server.baseURL, apiKey: 'k', maxRetries });
    return new ReActAgent({ model, tools: [echoTool()] });
  }

  it('ends the stream with an abnormal RunEnd carrying the HTTP status, then completes (no error)', async () => {
    server = await FakeOpenAIServer.start({ handler: () => FAIL_NOW });
    const { values, completed, error } = await outcomeOf(agentWithRetries(2).stream('hello'));
    expect(error).toBeUndefined();
    expect(completed).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(typesOf(values)).toEqual(['RunStart', 'ContextSize', 'ReasonStart', 'RunEnd']);
    const end = values.at(-1) as RunEndEvent;
    expect(end).toMatchObject({ abnormal: true, steps: 1, text: '' });
    expect(end.error).toMatch(/^model "flaky": HTTP 500: .*upstream exploded/);
  });

  it('recovers when a retry succeeds', async () => {
    server = await FakeOpenAIServer.start({ replies: [FAIL_NOW, { text: 'fine now' }] });
    const result = await agentWithRetries(1).call('hello');
    expect(result).toMatchObject({ abnormal: false, text: 'fine now' });
    expect(server.requests).toHaveLength(2);
  });

  it('call() resolves (not rejects) with abnormal: true and the error', async () => {
    server = await FakeOpenAIServer.start({ handler: () => FAIL_NOW });
    const result = await agentWithRetries(1).call('hello');
    expect(result.abnormal).toBe(true);
    expect(result.error).toContain('HTTP 500');
    expect(server.requests).toHaveLength(2);
  });

  it('keeps what earlier steps did: steps and usage up to the failure', async () => {
    server = await FakeOpenAIServer.start({
      replies: [{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }], usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } }],
      handler: () => FAIL_NOW,
    });
    const { values } = await outcomeOf(agentWithRetries(0).stream('hello'));
    expect(typesOf(values)).toContain('ActionEnd');
    expect(values.at(-1)).toMatchObject({
      type: 'RunEnd',
      abnormal: true,
      steps: 2,
      metrics: { promptTokens: 9, completionTokens: 3, totalTokens: 12 },
    });
  });
});

describe('other failures a run turns into an abnormal RunEnd', () => {
  it('a model stream that breaks off after some deltas', async () => {
    const model = new ScriptedModel([{ text: 'partial answer', chunkSize: 4, error: 'connection dropped' }]);
    const { values, completed } = await outcomeOf(new ReActAgent({ model }).stream('hi'));
    expect(completed).toBe(true);
    expect(typesOf(values)).toEqual(['RunStart', 'ContextSize', 'ReasonStart', ...Array(4).fill('ReasonDelta'), 'RunEnd']);
    expect(values.at(-1)).toMatchObject({ abnormal: true, error: 'connection dropped' });
  });

  it('a session store that cannot save', async () => {
    const broken: SessionStore = {
      load: () => [],
      append: () => Promise.reject(new Error('disk is read-only')),
    };
    const result = await new ReActAgent({ model: new ScriptedModel([{ text: 'x' }]), sessions: broken }).call('hi', { sessionId: 's1' });
    expect(result).toMatchObject({ abnormal: true, error: 'disk is read-only' });
  });
});
