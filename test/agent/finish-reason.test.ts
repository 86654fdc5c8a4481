import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ReasonEndEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { collect } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const reasonEnds = (events: readonly { type: string }[]) => events.filter((e): e is ReasonEndEvent => e.type === 'ReasonEnd');

describe('finish reasons are carried and honoured', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a final answer cut at the token limit ends the run abnormally, keeping the text and saying why', async () => {
    const model = new ScriptedModel([{ text: 'The answer is forty', finishReason: 'length' }]);
    const events = await collect(new ReActAgent({ model }).stream('go'));
    expect(reasonEnds(events)[0]!.finishReason).toBe('length');
    expect(events.at(-1)).toMatchObject({
      type: 'RunEnd',
      abnormal: true,
      text: 'The answer is forty',
      error: expect.stringMatching(/^model "scripted" stopped at its context window \(finish_reason "length": no maxTokens is set, so the limit was the server's own: usually the context window.*\) in the middle of its answer; compact the conversation \(engine\.compact\(sessionId\).*contextWindow\) or start the server with a larger context$/),
    });
    expect((events.at(-1) as { error: string }).error).not.toContain('maxTokens or ask for less');
  });

  it('cut at the agent\'s maxTokens: says so and names it; at the context window despite a maxTokens: names the window', async () => {
    const cut = (usage?: { promptTokens: number; completionTokens: number; totalTokens: number }) =>
      new ScriptedModel([{ text: 'The answer is', finishReason: 'length', ...(usage ? { usage } : {}) }]);
    const byMaxTokens = await new ReActAgent({ model: cut(), settings: { maxTokens: 50 } }).call('go');
    expect(byMaxTokens.error).toBe('model "scripted" stopped at its token limit (finish_reason "length") in the middle of its answer; raise its maxTokens (50) or ask for less');
    const full = { promptTokens: 4_000, completionTokens: 96, totalTokens: 4_096 };
    const byWindow = await new ReActAgent({ model: cut(full), settings: { maxTokens: 500, contextWindow: 4_096 } }).call('go');
    expect(byWindow.error).toMatch(/^model "scripted" stopped at its context window \(finish_reason "length": the prompt and the answer reached its context window of 4096 tokens\)/);
  });

  it('a reasoning model that runs out of tokens while thinking is not a silent empty success', async () => {
    const model = new ScriptedModel([{ thinking: 'hmm '.repeat(50), finishReason: 'length' }]);
    const result = await new ReActAgent({ model }).call('go');
    expect(result).toMatchObject({ abnormal: true, text: '', error: expect.stringContaining('before it wrote any answer') });
  });

  it('content_filter is abnormal too; stop and a missing reason are normal', async () => {
    const filtered = await new ReActAgent({ model: new ScriptedModel([{ text: '', finishReason: 'content_filter' }]) }).call('go');
    expect(filtered).toMatchObject({ abnormal: true, error: 'model "scripted" withheld its answer (finish_reason "content_filter")' });
    const events = await collect(new ReActAgent({ model: new ScriptedModel([{ text: 'fine' }]) }).stream('go'));
    expect(reasonEnds(events)[0]!.finishReason).toBe('stop');
    expect(events.at(-1)).toMatchObject({ abnormal: false, text: 'fine' });
  });

  it('over HTTP: finish_reason "length" from the server reaches ReasonEnd and fails the run', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ text: 'cut short', finishReason: 'length' }] });
    const events = await collect(new ReActAgent({ model: openAIModelFor(server) }).stream('go'));
    expect(reasonEnds(events)[0]).toMatchObject({ finishReason: 'length', text: 'cut short' });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('finish_reason "length"') });
  });

  it('a step cut while asking for tools still runs the calls it could read (their arguments are checked as usual)', async () => {
    const echo = { name: 'echo', description: 'Echoes.', parameters: { type: 'object' }, execute: () => 'echoed' };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'echo', args: '{"text": "cut' }], finishReason: 'length' }, { text: 'done' }]);
    const events = await collect(new ReActAgent({ model, tools: [echo] }).stream('go'));
    expect(events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ error: expect.stringContaining('not valid JSON') });
    expect(events.at(-1)).toMatchObject({ abnormal: false, text: 'done' });
  });
});
