import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { MISSING_QUESTION, repairStoredHistory, UNANSWERED_TURN } from '../../src/session/repair-history.js';
import { outcomeOf } from '../support/collect.js';
import { own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { nextTurnProblems, strictTemplateProblems } from '../support/strict-template.js';

// Sessions an older version or a crash left broken, as a strict template (Mistral-Nemo's
// "roles must alternate") would refuse them: repaired when loaded, with a Warning.

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'read', arguments: '{}' } });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });

describe('repairStoredHistory', () => {
  it('closes a turn with no answer: a user message followed by another, and one at the end', () => {
    const { messages, repairs } = repairStoredHistory([user('q1'), user('q2'), answer('a2'), user('q3')]);
    expect(messages).toEqual([user('q1'), answer(UNANSWERED_TURN), user('q2'), answer('a2'), user('q3'), answer(UNANSWERED_TURN)]);
    expect(repairs).toEqual(['closed 2 turn(s) that had no answer']);
  });

  it('merges assistant messages in a row (keeping the calls) and opens a conversation that starts with the assistant', () => {
    const { messages, repairs } = repairStoredHistory([
      answer('hello'),
      user('q'),
      answer('first'),
      { role: 'assistant', content: 'then', tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: 'r' },
      answer('done'),
    ]);
    expect(messages).toEqual([
      user(MISSING_QUESTION),
      answer('hello'),
      user('q'),
      { role: 'assistant', content: 'first\n\nthen', tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: 'r' },
      answer('done'),
    ]);
    expect(repairs).toEqual(['merged 1 assistant message(s) that followed another', 'put a placeholder question before the assistant message that opened it']);
  });

  it('leaves a valid history as it is (the same array) and reports nothing', () => {
    const history = [user('q'), { role: 'assistant' as const, content: null, tool_calls: [call('a')] }, { role: 'tool' as const, tool_call_id: 'a', content: 'r' }, answer('done')];
    expect(repairStoredHistory(history)).toEqual({ messages: history, repairs: [] });
    expect(repairStoredHistory(history).messages).toBe(history);
  });

  it('whatever the stored messages, the repaired history and a next prompt pass the strict alternation check', () => {
    const id = fc.constantFrom('a', 'b', 'c');
    const message: fc.Arbitrary<ChatMessage> = fc.oneof(
      fc.constant(user('q')),
      fc.constant(answer('a')),
      fc.uniqueArray(id, { minLength: 1, maxLength: 3 }).map((ids): ChatMessage => ({ role: 'assistant', content: null, tool_calls: ids.map(call) })),
      id.map((i): ChatMessage => ({ role: 'tool', tool_call_id: i, content: 'r' })),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (history) => {
        expect(nextTurnProblems(repairStoredHistory(history).messages)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a broken stored session, loaded by a run', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('is repaired with a Warning, and the request the run sends passes the strict check', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ text: 'Yes.' }] });
    const sessions = new MemorySessionStore();
    // What an older version stored after a turn whose model request failed: the question alone.
    sessions.append('s', [user('What failed?')]);
    const run = await outcomeOf(new ReActAgent({ model: openAIModelFor(server), sessions, instructions: 'Be brief.' }).stream('Still there?', { sessionId: 's' }));
    const [warning] = own(run.values, 'Warning');
    expect(warning).toMatchObject({ code: 'session-repaired', message: expect.stringContaining('closed 1 turn(s) that had no answer') });
    expect(warning?.message).toContain('session "s"');
    const sent = server.requests[0]!.body.messages as ChatMessage[];
    expect(strictTemplateProblems(sent)).toEqual([]);
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(own(run.values, 'RunEnd')[0]).toMatchObject({ abnormal: false, text: 'Yes.' });
    // A repair at the end (the turn a crash left open) is saved: the next load needs none.
    expect(sessions.load('s')).toEqual([user('What failed?'), answer(UNANSWERED_TURN), user('Still there?'), answer('Yes.')]);
    server.enqueue({ text: 'Again.' });
    const next = await outcomeOf(new ReActAgent({ model: openAIModelFor(server), sessions }).stream('And now?', { sessionId: 's' }));
    expect(own(next.values, 'Warning')).toEqual([]);
  });

  it('a repair inside the history is made at each load and never written over the stored messages', async () => {
    server = await FakeOpenAIServer.start({ handler: () => ({ text: 'ok' }) });
    const sessions = new MemorySessionStore();
    const stored = [user('q1'), user('q2'), answer('a2')];
    sessions.append('s', stored);
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
    for (const prompt of ['one', 'two']) {
      const run = await outcomeOf(agent.stream(prompt, { sessionId: 's' }));
      expect(own(run.values, 'Warning').map((w) => w.code)).toEqual(['session-repaired']);
    }
    expect(sessions.load('s').slice(0, 3)).toEqual(stored);
    expect(strictTemplateProblems(server.requests[1]!.body.messages as ChatMessage[])).toEqual([]);
  });
});
