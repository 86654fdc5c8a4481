/**
 * The summary a compaction stores is never longer than the limit it asked for (a third of
 * the target, at most 2,000 tokens), whatever the summariser writes, and a summariser that
 * fails leaves a note instead; either way the event's `summaryError` says so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { summaryStreamLimit } from '../../../src/agent/compaction-summary.js';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { CHARS_PER_TOKEN } from '../../../src/model/estimate-tokens.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, chatHistory, isSummaryRequest } from '../../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeReply } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An agent on a session of ten long turns, against an 8,192-token server whose summariser replies `summary`. */
async function compactingAgent(summary: FakeReply): Promise<{ agent: ReActAgent; sessions: MemorySessionStore; server: FakeOpenAIServer }> {
  const server = await FakeOpenAIServer.start({ contextSize: 8_192, handler: (r) => (isSummaryRequest(r) ? summary : { text: 'the answer' }) });
  servers.push(server);
  const sessions = new MemorySessionStore();
  sessions.append('s', chatHistory(10));
  return { agent: new ReActAgent({ model: openAIModelFor(server), sessions }), sessions, server };
}

const compactionOf = (events: readonly AgentEvent[]): CompactionEvent | undefined => events.find((e): e is CompactionEvent => e.type === 'Compaction');

describe('a compaction summary', () => {
  it('that ignores max_tokens (12,000 characters) is cut to the limit it asked for, the cut is reported, and the session fits again on the next turn', async () => {
    const { agent, sessions, server } = await compactingAgent({ text: 'S'.repeat(12_000) });
    const events: AgentEvent[] = await collect(agent.stream('And topic 9?', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    const asked = server.requests.find(isSummaryRequest)!.body.max_tokens as number;
    expect(asked).toBeGreaterThan(0);
    const first = sessions.load('s')[0]!;
    const summary = first.role === 'user' ? first.content : '';
    expect(summary).toMatch(/characters cut/); // the model is told a part is missing
    expect(summary.replace(/[^S]/g, '').length).toBeLessThanOrEqual(asked * CHARS_PER_TOKEN);
    expect(compactionOf(events)?.summaryError).toMatch(/over the \d+ \(\d+ tokens\) asked for/);
    const next = await agent.call('And topic 10?', { sessionId: 's' });
    expect(next.abnormal, next.error).toBe(false);
  });

  it('that streams without end (text or reasoning) is read no further than its limit: the request is aborted, its start kept, and the run answers', async () => {
    for (const endless of [{ text: 'S'.repeat(2_000_000) }, { thinking: 'hmm '.repeat(500_000) }] as FakeReply[]) {
      // Two thousand chunks, one every 5 ms: read whole, this reply would take ten seconds and more.
      const { agent, sessions, server } = await compactingAgent({ ...endless, chunkSize: 1_000, chunkDelayMs: 5 });
      const events: AgentEvent[] = await collect(agent.stream('And topic 9?', { sessionId: 's' }));
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
      const summary = server.requests.find(isSummaryRequest)!;
      await server.waitForClosed(summary.index, 30_000);
      expect(summary.aborted).toBe(true);
      const asked = summary.body.max_tokens as number;
      expect(compactionOf(events)?.summaryError).toMatch(new RegExp(`streamed over ${summaryStreamLimit(asked)} characters .* read no further`));
      const first = String(sessions.load('s')[0]!.content);
      if ('text' in endless) expect(first.replace(/[^S]/g, '').length).toBeLessThanOrEqual(asked * CHARS_PER_TOKEN);
      else expect(first).toMatch(/No summary could be written: model "fake-model" streamed over/);
      expect(alternationProblems(sessions.load('s'))).toEqual([]);
    }
  });

  it.each([
    ['an empty summary', { text: '' }, /empty summary/],
    ['a blank summary', { text: '   \n ' }, /empty summary/],
    ['HTTP 500', { status: 500, errorMessage: 'boom' }, /./],
    ['a tool call instead of text', { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf ~' } }] }, /empty summary/],
    ['reasoning only', { thinking: 'Let me think about the topics. '.repeat(20) }, /empty summary/],
  ] as [string, FakeReply, RegExp][])('that fails (%s) is replaced by a note, summaryError says why, and the run answers', async (_name, reply, why) => {
    const { agent, sessions } = await compactingAgent(reply);
    const events: AgentEvent[] = await collect(agent.stream('And topic 9?', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    expect(compactionOf(events)).toMatchObject({ summarisedMessages: expect.any(Number), summaryError: expect.stringMatching(why) });
    expect(sessions.load('s')[0]!.content).toMatch(/No summary could be written/);
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});
