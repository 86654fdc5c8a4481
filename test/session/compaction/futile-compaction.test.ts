/**
 * A compaction that cannot make the request fit must not eat the conversation: a system
 * prompt larger than the model's window, or a tool result the model has not read yet that
 * alone overflows it (a `read` of 50,000 characters under an 8K window). Before, each such
 * turn summarised every turn before it (two summary requests a turn, the second summarising
 * the first's summary) and failed all the same; the next turn summarised the summary again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import type { Tool } from '../../../src/tools/tool.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, chatHistory, isSummaryRequest } from '../../support/compaction-kit.js';
import { conversationProblems } from '../../support/conversation.js';
import { FakeOpenAIServer, type FakeHandler } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { TEXT_PARAMETERS } from '../../support/test-tools.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A llama.cpp-like server of `contextSize` tokens (`/props` says it; a longer prompt gets its HTTP 400). */
async function serverWith(contextSize: number, handler: FakeHandler): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start({ contextSize, handler });
  servers.push(server);
  return server;
}

const endOf = (events: readonly AgentEvent[]): RunEndEvent => events.at(-1) as RunEndEvent;

describe('a system prompt larger than the context window', () => {
  it('leaves the conversation whole turn after turn, says why, and the turn after the prompt is shortened answers', async () => {
    const server = await serverWith(4_096, (r) => (isSummaryRequest(r) ? { text: 'SUMMARY' } : { text: 'the answer' }));
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(4));
    const long = new ReActAgent({ model: openAIModelFor(server), sessions, instructions: 'You are helpful. '.repeat(1_200) });
    for (const prompt of ['And topic 5?', 'And topic 6?']) {
      const events: AgentEvent[] = await collect(long.stream(prompt, { sessionId: 's' }));
      expect(endOf(events)).toMatchObject({ abnormal: true, error: expect.stringMatching(/\d+ of them the system prompt and tool schemas/) });
      expect(events.filter((e) => e.type === 'Warning' && e.code === 'context-window-too-small')).toHaveLength(1);
      expect(events.some((e) => e.type === 'Compaction')).toBe(false);
    }
    expect(server.requests.filter(isSummaryRequest)).toEqual([]);
    // Each turn was refused once: the refusal named the window, and no compaction could shorten the request.
    expect(server.requests.map((r) => r.status)).toEqual([400, 400]);
    // Every earlier turn is still there, word for word: nothing was summarised away.
    const stored = sessions.load('s');
    expect(stored.slice(0, 8)).toEqual(chatHistory(4));
    expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([...chatHistory(4).filter((m) => m.role === 'user').map((m) => m.content), 'And topic 5?', 'And topic 6?']);
    // With a prompt that fits, the same session goes on (compacted as usual if need be).
    const short = new ReActAgent({ model: openAIModelFor(server), sessions, instructions: 'You are helpful.' });
    const next: AgentEvent[] = await collect(short.stream('And topic 7?', { sessionId: 's' }));
    expect(endOf(next)).toMatchObject({ abnormal: false, text: 'the answer' });
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});

/** `huge`: returns 60,000 characters (some 15,000 tokens), more than the whole window. */
const huge: Tool<{ text: string }> = { name: 'huge', description: 'Dumps a lot.', parameters: TEXT_PARAMETERS, execute: () => 'H'.repeat(60_000) };

describe('a tool result not read yet that alone overflows the window', () => {
  it('fails its turn without summarising the turns before it, and the next turn prunes it and answers', async () => {
    const server = await serverWith(8_192, (r) => {
      if (isSummaryRequest(r)) return { text: 'SUMMARY' };
      const last = r.body.messages!.at(-1)!;
      if (last.role === 'tool') return { text: 'read it' };
      return /dump/.test(String(last.content)) ? { toolCalls: [{ name: 'huge', arguments: { text: 'all' } }] } : { text: 'plain answer' };
    });
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [huge] });
    expect(endOf(await collect(agent.stream('hello', { sessionId: 's' })))).toMatchObject({ abnormal: false, text: 'plain answer' });
    const failed: AgentEvent[] = await collect(agent.stream('dump it', { sessionId: 's' }));
    expect(endOf(failed)).toMatchObject({ abnormal: true, error: expect.stringMatching(/does not fit the context window.*cannot make it fit, so it was not sent again .*tool results not read yet are kept whole/) });
    expect(server.requests.map((r) => r.status)).toEqual([200, 200, 400]); // refused once, not sent again
    expect(failed.some((e) => e.type === 'Compaction')).toBe(false);
    expect(server.requests.filter(isSummaryRequest)).toEqual([]);
    expect(sessions.load('s').slice(0, 2)).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'plain answer' },
    ]);
    const next: AgentEvent[] = await collect(agent.stream('and now?', { sessionId: 's' }));
    expect(endOf(next)).toMatchObject({ abnormal: false, text: 'plain answer' });
    expect(next.find((e) => e.type === 'Compaction')).toMatchObject({ prunedToolResults: 1, summarisedMessages: 0 });
    expect(conversationProblems(sessions.load('s'))).toEqual([]);
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});
