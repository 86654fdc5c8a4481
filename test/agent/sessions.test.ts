import { afterEach, describe, expect, it } from 'vitest';
import type { PromptPrefix } from '../../src/agent/agent-scope.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { scopeOfOptions } from '../../src/agent/resolve-agent-options.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { INTERRUPTED_TOOL_RESULT, repairHistory, UNANSWERED_TURN } from '../../src/session/repair-history.js';
import type { SessionStore } from '../../src/session/session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';
import { conversationProblems } from '../support/conversation.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

describe('sessions', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('keeps the history across two runs of the same sessionId, and does not share it with other sessions', async () => {
    server = await FakeOpenAIServer.start(); // echoes: "You said: <last user message>"
    const agent = new ReActAgent({ model: openAIModelFor(server), instructions: 'Remember things.' });
    const first = await agent.call('My name is Ada.', { sessionId: 'ada' });
    const second = await agent.call('What is my name?', { sessionId: 'ada' });
    await agent.call('Who am I?', { sessionId: 'someone-else' });
    expect([first.sessionId, second.sessionId]).toEqual(['ada', 'ada']);
    expect(first.runId).not.toBe(second.runId);
    const [, again, other] = server.requests.map((r) => r.body.messages);
    expect(again).toEqual([
      { role: 'system', content: 'Remember things.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'You said: My name is Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    expect(other).toEqual([
      { role: 'system', content: 'Remember things.' },
      { role: 'user', content: 'Who am I?' },
    ]);
  });

  it('starts a fresh session for every run without a sessionId, and says which in RunStart', async () => {
    const model = new ScriptedModel(() => ({ text: 'ok' }));
    const agent = new ReActAgent({ model });
    const a = await outcomeOf(agent.stream('one'));
    const b = await outcomeOf(agent.stream('two', { sessionId: 'named' }));
    const c = await outcomeOf(agent.stream('three'));
    const ids = [a, b, c].map(({ values }) => (values[0]?.type === 'RunStart' ? values[0].sessionId : undefined));
    expect(ids[1]).toBe('named');
    expect(ids[0]).toMatch(/^ses_/);
    expect(ids[2]).toMatch(/^ses_/);
    expect(ids[0]).not.toBe(ids[2]);
    expect(model.requests[2]?.messages.filter((m) => m.role !== 'system')).toEqual([{ role: 'user', content: 'three' }]);
    expect(a.values[0]).toMatchObject({ type: 'RunStart', prompt: 'one' });
  });

  it('promptPrefix: asked once per run with its session, after the load; its text is saved in front of the prompt', async () => {
    const model = new ScriptedModel(() => ({ text: 'ok' }));
    const sessions = new MemorySessionStore();
    const asked: Array<[string, number]> = [];
    const prefixes = ['<note>first</note>', ''];
    const scope = scopeOfOptions({ model, sessions });
    const promptPrefix = (sessionId: string): PromptPrefix => {
      asked.push([sessionId, sessions.load(sessionId).length]);
      return { text: prefixes.shift() ?? '', unsaved: () => undefined };
    };
    const agent = ReActAgent.ofScope('main', () => ({ ...scope, promptPrefix }));
    const first = await outcomeOf(agent.stream('one', { sessionId: 's' }));
    await agent.call('two', { sessionId: 's' });
    expect(asked).toEqual([
      ['s', 0],
      ['s', 2],
    ]);
    expect(first.values[0]).toMatchObject({ type: 'RunStart', prompt: 'one' });
    expect(sessions.load('s').filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['<note>first</note>\n\none', 'two']);
    expect(model.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: '<note>first</note>\n\none' });
  });

  it('stores the whole turn, tool calls and results included, in the store it is given (sync or async)', async () => {
    const memory = new MemorySessionStore();
    const slow: SessionStore = {
      load: async (id) => memory.load(id),
      append: async (id, messages) => memory.append(id, messages),
    };
    const clock: Tool = { name: 'clock', description: 'Time.', parameters: { type: 'object' }, execute: () => '12:00' };
    const model = new ScriptedModel([{ toolCalls: [{ id: 't1', name: 'clock', args: {} }] }, { text: 'It is noon.' }]);
    const result = await new ReActAgent({ model, tools: [clock], sessions: slow, instructions: 'never stored' }).call('Time?', { sessionId: 's' });
    expect(result.text).toBe('It is noon.');
    expect(memory.load('s')).toEqual([
      { role: 'user', content: 'Time?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'clock', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 't1', content: '12:00' },
      { role: 'assistant', content: 'It is noon.' },
    ]);
  });

  it('a run cancelled between a tool call and its result closes its turn: the next run sends a valid conversation', async () => {
    const waiting: Tool = {
      name: 'wait',
      description: 'Waits until cancelled.',
      parameters: { type: 'object' },
      execute: (_args, { signal }) => new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')))),
    };
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'w1', name: 'wait', args: {} }, { id: 'w2', name: 'wait', args: {} }] },
      { text: 'Sorry, that was interrupted.' },
    ]);
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model, tools: [waiting], sessions });
    const subscription = agent.stream('Wait twice', { sessionId: 's' }).subscribe();
    subscription.unsubscribe(); // the first call is running (synchronously reached), the second never started
    // Closed when cancelled: both calls answered as interrupted, then an answer saying why.
    expect(conversationProblems(sessions.load('s'))).toEqual([]);
    expect(sessions.load('s').at(-1)).toEqual({ role: 'assistant', content: '(No answer: this turn did not finish: the run was cancelled.)' });
    const result = await agent.call('Are you there?', { sessionId: 's' });
    expect(result.text).toBe('Sorry, that was interrupted.');
    const sent = model.requests[1]!.messages; // no instructions: no system message
    expect(conversationProblems(sent)).toEqual([]);
    expect(sent.slice(1, 4)).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: 'w1' }, { id: 'w2' }] },
      { role: 'tool', tool_call_id: 'w1', content: INTERRUPTED_TOOL_RESULT },
      { role: 'tool', tool_call_id: 'w2', content: INTERRUPTED_TOOL_RESULT },
    ]);
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'Are you there?' });
  });
});

describe('repairHistory', () => {
  const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'read', arguments: '{}' } });

  it('returns the same array when every call has its result', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: 'r' },
      { role: 'assistant', content: 'done' },
    ];
    expect(repairHistory(history)).toBe(history);
  });

  it('answers the missing calls after the results that exist, in every turn that needs it', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: 'r' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'x', tool_calls: [call('c')] },
    ];
    const repaired = repairHistory(history);
    expect(repaired).toEqual([
      history[0],
      history[1],
      history[2],
      { role: 'tool', tool_call_id: 'b', content: INTERRUPTED_TOOL_RESULT },
      // No user turn right after tool results: templates that alternate turns refuse it.
      { role: 'assistant', content: UNANSWERED_TURN },
      history[3],
      history[4],
      { role: 'tool', tool_call_id: 'c', content: INTERRUPTED_TOOL_RESULT },
      { role: 'assistant', content: UNANSWERED_TURN },
    ]);
    expect(conversationProblems(repaired)).toEqual([]);
    expect(history).toHaveLength(5);
  });

  it('closes tool results no answer followed (a run that failed after them) with an assistant turn', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: 'r' },
      { role: 'user', content: 'q2' },
    ];
    // q2 got no answer either (the next prompt follows it): closed too.
    const closed = { role: 'assistant', content: UNANSWERED_TURN };
    expect(repairHistory(history)).toEqual([...history.slice(0, 3), closed, history[3], closed]);
  });
});
