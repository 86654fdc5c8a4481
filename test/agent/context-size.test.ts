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

  it('with a known context window, each step\'s request is estimated once: the check whether it fits and its ContextSize share it', async () => {
    // The schema counts how often it is serialized (JSON.stringify calls toJSON): the estimate's
    // costly part, which the compaction check and ContextSize used to do once each.
    let serialized = 0;
    const schema = { ...(wide.parameters as object) };
    const counting = { ...schema, toJSON: () => (serialized++, schema) };
    const counted: Tool = { ...wide, name: 'counted', parameters: counting as unknown as Tool['parameters'] };
    const noop: Tool = { name: 'noop', description: 'Does nothing.', parameters: { type: 'object', properties: {} }, execute: () => 'done' };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'noop', args: {} }] }, { text: 'hi' }]);
    const agent = new ReActAgent({ model, tools: [counted, noop], settings: { contextWindow: 100_000 } });
    // Counted from the run on: making the agent checks its tools' schemas, reading them as JSON once.
    serialized = 0;
    const events = await collect(agent.stream('hello'));
    const sizes = events.filter((e): e is ContextSizeEvent => e.type === 'ContextSize');
    expect(sizes).toHaveLength(2);
    // Once for the run: its second step offers the same tool list, whose estimate is kept.
    expect(serialized).toBe(1);
    expect(events.filter((e) => e.type === 'Compaction')).toEqual([]);
    // The shared estimate is still the whole request's, schemas included.
    const schemaChars = JSON.stringify(schema).length + wide.description.length;
    expect(sizes[0]!.tokenCount).toBeGreaterThanOrEqual(estimateTokens(model.requests[0]!.messages) + Math.floor(schemaChars / 4));
  });

  it('the server\'s own count arrives on ReasonEnd.usage, next to the estimate', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ text: 'hi', usage: { prompt_tokens: 3358, completion_tokens: 2, total_tokens: 3360 } }] });
    const events = await collect(new ReActAgent({ model: openAIModelFor(server), tools: [wide] }).stream('hello'));
    const end = events.find((e): e is ReasonEndEvent => e.type === 'ReasonEnd')!;
    expect(end.usage).toEqual({ promptTokens: 3358, completionTokens: 2, totalTokens: 3360 });
    expect(events.at(-1)).toMatchObject({ metrics: expect.objectContaining({ promptTokens: 3358, totalTokens: 3360 }) });
  });
});
