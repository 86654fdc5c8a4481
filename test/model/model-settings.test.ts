import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { echoTool } from '../support/test-tools.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelOn = (s: FakeOpenAIServer, settings?: ConstructorParameters<typeof OpenAIChatModel>[0]['settings']) =>
  new OpenAIChatModel({ model: 'm', baseURL: s.baseURL, apiKey: 'k', maxRetries: 0, ...(settings ? { settings } : {}) });

describe('model settings', () => {
  it('the model\'s defaults go out under their wire names', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }] });
    const model = modelOn(server, { temperature: 0.2, topP: 0.9, maxTokens: 300, toolChoice: 'required', parallelToolCalls: false });
    await new ReActAgent({ model, tools: [echoTool()] }).call('go');
    expect(server.requests[0]!.body).toMatchObject({ temperature: 0.2, top_p: 0.9, max_tokens: 300, tool_choice: 'required', parallel_tool_calls: false });
  });

  it('an agent\'s own settings win over the model\'s; a named toolChoice becomes the function form', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ text: 'done' }] });
    const model = modelOn(server, { temperature: 0.2, maxTokens: 300 });
    await new ReActAgent({ model, tools: [echoTool()], settings: { temperature: 1.1, toolChoice: { name: 'echo' } } }).call('go');
    expect(server.requests[0]!.body).toMatchObject({ temperature: 1.1, max_tokens: 300, tool_choice: { type: 'function', function: { name: 'echo' } } });
  });

  it('never sends tool_choice or parallel_tool_calls without tools: the last step offers none', async () => {
    server = await FakeOpenAIServer.start({ handler: (r) => (r.body.tools?.length ? { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] } : { text: 'final' }) });
    const model = modelOn(server, { toolChoice: 'required', parallelToolCalls: true, maxTokens: 50 });
    const result = await new ReActAgent({ model, tools: [echoTool()], maxSteps: 2 }).call('go');
    expect(result).toMatchObject({ abnormal: false, text: 'final' });
    const last = server.requests.at(-1)!.body;
    expect(last).not.toHaveProperty('tools');
    expect(last).not.toHaveProperty('tool_choice');
    expect(last).not.toHaveProperty('parallel_tool_calls');
    expect(last).toMatchObject({ max_tokens: 50 });
  });

  it('bad settings are refused at construction, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ temperature: 3 }, /OpenAIChatModel: temperature must be a number from 0 to 2, got 3/],
      [{ topP: -0.1 }, /topP must be a number from 0 to 1/],
      [{ maxTokens: 0 }, /maxTokens must be a whole number of at least 1, got 0/],
      [{ toolChoice: 'always' }, /toolChoice must be "auto", "required", "none" or \{ name \}, got "always"/],
      [{ parallelToolCalls: 'yes' }, /parallelToolCalls must be true or false/],
      [{ temprature: 1 }, /unknown setting "temprature"; known: temperature, topP/],
      ['hot', /settings must be an object/],
      // Numbers as themselves: JSON.stringify would say `null` for these.
      [{ temperature: Number.NaN }, /temperature must be a number from 0 to 2, got NaN$/],
      [{ topP: Number.NEGATIVE_INFINITY }, /topP must be a number from 0 to 1, got -Infinity$/],
      [{ maxTokens: Number.NaN }, /maxTokens must be a whole number of at least 1, got NaN$/],
      [{ contextWindow: Number.POSITIVE_INFINITY }, /contextWindow must be a whole number of tokens, at least 256, got Infinity$/],
      [{ maxTokens: '12' }, /maxTokens must be a whole number of at least 1, got "12"$/],
    ];
    for (const [settings, message] of cases) {
      expect(() => new OpenAIChatModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', settings: settings as never })).toThrow(message);
    }
    expect(() => new ReActAgent({ model: { id: 'x', stream: () => { throw new Error('unused'); } }, settings: { maxTokens: 1.5 } })).toThrow(/ReActAgent: maxTokens must be a whole number/);
  });
});
