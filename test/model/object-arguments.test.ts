/**
 * A server that sends a tool call's `arguments` as a JSON object instead of the JSON text the
 * API specifies (some OpenAI-compatible servers do): the call runs with that object, rather
 * than the run ending on a TypeError thrown while reading the answer.
 */
import { of } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/model/chat-model.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
});

/** A whole chat completion whose one tool call carries `args` as they are. */
function completion(args: unknown): string {
  const call = { id: 'c1', type: 'function', function: { name: 'clock', arguments: args } };
  return JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }] });
}

describe('tool-call arguments that are not text', () => {
  it.each([
    ['an object', { zone: 'UTC' }, { zone: 'UTC' }],
    ['null', null, {}],
  ])('%s: the call runs with it and the run goes on', async (_name, sent, received) => {
    const seen: unknown[] = [];
    const clock: Tool = { name: 'clock', description: 'Tells the time.', parameters: { type: 'object' }, execute: (args) => (seen.push(args), '12:00') };
    server = await FakeOpenAIServer.start({ replies: [{ rawSse: completion(sent), headers: { 'content-type': 'application/json' } }, { text: 'noon' }] });
    const agent = new ReActAgent({ model: openAIModelFor(server), tools: [clock] });
    const events: AgentEvent[] = await collect(agent.stream('What time is it?'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'noon' });
    expect(seen).toEqual([received]);
  });
});

describe('a custom ChatModel in JavaScript handing over the arguments object', () => {
  it('runs the call with it', async () => {
    const seen: unknown[] = [];
    const clock: Tool = { name: 'clock', description: 'Tells the time.', parameters: { type: 'object' }, execute: (args) => (seen.push(args), '12:00') };
    let step = 0;
    const model: ChatModel = {
      id: 'js-model',
      stream: () =>
        of(
          step++ === 0
            ? { type: 'finish' as const, text: '', toolCalls: [{ id: 'c1', name: 'clock', arguments: { zone: 'UTC' } as unknown as string }] }
            : { type: 'finish' as const, text: 'noon', toolCalls: [] },
        ),
    };
    const events: AgentEvent[] = await collect(new ReActAgent({ model, tools: [clock] }).stream('time?'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'noon' });
    expect(seen).toEqual([{ zone: 'UTC' }]);
  });
});
