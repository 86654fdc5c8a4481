import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ContextSizeEvent, ReasonEndEvent } from '../../src/events/agent-event.js';
import { estimateTokens } from '../../src/model/estimate-tokens.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

/** A tool whose schema is much larger than the conversation, as real tool sets are. */
const wide: Tool = {
  name: 'wide',
  description: 'A tool with many documented parameters. '.repeat(20),
  parameters: { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'string', description: `parameter number ${i}, documented` }])) },
  execute: () => 'ok',
};

describe('ContextSize counts what is sent', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('the estimate includes the tool schemas, not only the messages', async () => {
    const model = new ScriptedModel([{ text: 'hi' }]);
    const events = await collect(new ReActAgent({ model, tools: [wide] }).stream('hello'));
    const size = events.find((e): e is ContextSizeEvent => e.type === 'ContextSize')!;
    const messagesOnly = estimateTokens(model.requests[0]!.messages);
    const schemaChars = JSON.stringify(wide.parameters).length + wide.description.length;
    expect(size.tokenCount).toBeGreaterThanOrEqual(messagesOnly + Math.floor(schemaChars / 4));
  });

  it('the last step, sent without tools, is estimated without them', async () => {
    const model = new ScriptedModel([{ text: 'hi' }]);
    const events = await collect(new ReActAgent({ model, tools: [wide], maxSteps: 1 }).stream('hello'));
    const size = events.find((e): e is ContextSizeEvent => e.type === 'ContextSize')!;
    expect(size.tokenCount).toBe(estimateTokens(model.requests[0]!.messages));
  });

  it('the server\'s own count arrives on ReasonEnd.usage, next to the estimate', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ text: 'hi', usage: { prompt_tokens: 3358, completion_tokens: 2, total_tokens: 3360 } }] });
    const events = await collect(new ReActAgent({ model: openAIModelFor(server), tools: [wide] }).stream('hello'));
    const end = events.find((e): e is ReasonEndEvent => e.type === 'ReasonEnd')!;
    expect(end.usage).toEqual({ promptTokens: 3358, completionTokens: 2, totalTokens: 3360 });
    expect(events.at(-1)).toMatchObject({ metrics: expect.objectContaining({ promptTokens: 3358, totalTokens: 3360 }) });
  });
});
