/**
 * A server that gives two parallel tool calls of one message the same id: each call still
 * gets its own id and its own result before anything is stored or sent, so the next turn
 * loads the session unrepaired (no `session-repaired` Warning, every result kept) and starts
 * with the previous turn byte for byte (a server's prompt cache still serves it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';
import { conversationProblems } from '../support/conversation.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
});

const clock: Tool = { name: 'clock', description: 'Tells the time.', parameters: { type: 'object' }, execute: () => '12:00' };

describe('two parallel tool calls with the same id', () => {
  it('are stored and sent with ids of their own, one result each, and the next turn loads without a repair and extends the last request', async () => {
    server = await FakeOpenAIServer.start({
      replies: [{ toolCalls: [{ id: 'dup', name: 'clock', arguments: {} }, { id: 'dup', name: 'clock', arguments: { zone: 'UTC' } }] }, { text: 'noon' }, { text: 'still noon' }],
    });
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [clock] });
    const first: AgentEvent[] = await collect(agent.stream('What time is it?', { sessionId: 's' }));
    expect(first.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'noon' });
    const stored = sessions.load('s');
    expect(stored.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []))).toEqual(['dup', 'dup_2']);
    expect(stored.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))).toEqual(['dup', 'dup_2']);
    expect(conversationProblems(stored)).toEqual([]);

    const second: AgentEvent[] = await collect(agent.stream('And now?', { sessionId: 's' }));
    expect(second.filter((e) => e.type === 'Warning')).toEqual([]);
    expect(second.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'still noon' });
    const [, lastOfFirst, firstOfSecond] = server.requests.map((r) => (r.body.messages ?? []).map((m) => JSON.stringify(m)));
    expect(firstOfSecond!.slice(0, lastOfFirst!.length)).toEqual(lastOfFirst);
  });

  it('from any model, not only a server read by the openai client: a script repeating an id or giving an empty one gets ids of its own, one result each', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'same', name: 'clock', args: {} }, { id: 'same', name: 'clock', args: { zone: 'UTC' } }, { id: '', name: 'clock', args: {} }] },
      { text: 'noon' },
    ]);
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model, sessions, tools: [clock] });
    const events: AgentEvent[] = await collect(agent.stream('What time is it?', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'noon' });
    const ends = events.flatMap((e) => (e.type === 'ToolCallEnd' ? [e.callId] : []));
    expect(ends).toEqual(['same', 'same_2', 'call_2']);
    const stored = sessions.load('s');
    expect(stored.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))).toEqual(['same', 'same_2', 'call_2']);
    expect(conversationProblems(stored)).toEqual([]);
  });
});
