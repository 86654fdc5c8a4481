import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';
import { own } from '../support/collect-events.js';
import { FakeOpenAIServer, type RecordedRequest } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { splitToolCalls } from '../../src/model/single-tool-calls.js';

// A chat template that takes one tool call per assistant message (Llama 3.1's raises "This
// model only supports single tool-calls at once!") refuses a conversation in which the model
// made parallel calls. The model sends the request once more in the single-call form, warns,
// and keeps that form for its later requests.

const REFUSAL = 'Error rendering prompt: This model only supports single tool-calls at once!';
const clock: Tool = { name: 'clock', description: 'Time.', parameters: { type: 'object' }, execute: () => '12:00' };
const multiCall = (messages: readonly ChatMessage[]) => messages.some((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 1);

/** The template's behaviour: a conversation with a multi-call message is refused; else step 1 calls two tools, step 2 answers. */
function llama31(request: RecordedRequest) {
  const messages = request.body.messages ?? [];
  if (multiCall(messages)) return { status: 500, errorMessage: REFUSAL };
  if (messages.some((m) => m.role === 'tool')) return { text: 'It is noon twice.' };
  return { toolCalls: [{ id: 'a', name: 'clock', arguments: {} }, { id: 'b', name: 'clock', arguments: {} }] };
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
});

describe('a template that refuses parallel tool calls', () => {
  it('gets one retry with parallel_tool_calls: false and one call per message, with a Warning; later requests go that way at once', async () => {
    server = await FakeOpenAIServer.start({ handler: llama31 });
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), tools: [clock], sessions });
    const first = await outcomeOf(agent.stream('What time is it, twice?', { sessionId: 's' }));
    expect(own(first.values, 'RunEnd')[0]).toMatchObject({ abnormal: false, text: 'It is noon twice.' });
    expect(own(first.values, 'Warning')).toEqual([
      expect.objectContaining({ code: 'model-single-tool-calls', message: expect.stringContaining('only supports single tool-calls at once') }),
    ]);
    expect(server.requests.map((r) => r.status)).toEqual([200, 500, 200]);
    const retried = server.requests[2]!.body;
    expect(retried.parallel_tool_calls).toBe(false);
    expect(retried.messages!.map((m) => `${m.role}${m.role === 'tool' ? `:${m.tool_call_id}` : ''}`)).toEqual(['user', 'assistant', 'tool:a', 'assistant', 'tool:b']);
    // The session keeps what the model really did.
    expect(sessions.load('s')[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'a' }, { id: 'b' }] });

    const second = await outcomeOf(agent.stream('And now?', { sessionId: 's' }));
    expect(own(second.values, 'Warning')).toEqual([]);
    // The stored conversation holds the parallel calls: sent split at once, no refused request first.
    expect(server.requests.slice(3).map((r) => [r.status, r.body.parallel_tool_calls, multiCall(r.body.messages ?? [])])).toEqual([[200, false, false]]);
  });

  it('one retry only: a request already in the single-call form that is refused fails with the server\'s message', async () => {
    server = await FakeOpenAIServer.start({ handler: () => ({ status: 500, errorMessage: REFUSAL }) });
    const result = await new ReActAgent({ model: openAIModelFor(server), tools: [clock] }).call('go');
    expect(result.error).toContain('only supports single tool-calls at once');
    expect(server.requests).toHaveLength(2);
  });
});

describe('splitToolCalls', () => {
  it('puts each call of a multi-call message in a message of its own, followed by its result; text stays with the first', () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'clock', arguments: '{}' } });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'Checking.', tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'b', content: 'rb' },
      { role: 'tool', tool_call_id: 'a', content: 'ra' },
      { role: 'assistant', content: 'done' },
    ];
    expect(splitToolCalls(messages)).toEqual([
      messages[0],
      { role: 'assistant', content: 'Checking.', tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: 'ra' },
      { role: 'assistant', content: null, tool_calls: [call('b')] },
      { role: 'tool', tool_call_id: 'b', content: 'rb' },
      messages[4],
    ]);
  });
});
