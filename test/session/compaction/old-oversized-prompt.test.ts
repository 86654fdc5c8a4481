/**
 * A prompt is summarised with its turn once a later prompt follows it. Before, a cut could
 * stop inside an earlier turn (its last answer was small) and carry that turn's whole prompt
 * into the summary message, uncounted: an old prompt too long for the window was never
 * summarised away, every later turn failed after two summaries and two refused requests, and a
 * large prompt that fits was "summarised" turn after turn without the session shrinking.
 */
import { firstValueFrom, of } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { compactMessages$ } from '../../../src/session/compaction/compact-messages.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest } from '../../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeHandler } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A llama.cpp-like server with an 8K context: `/props` says 8192, a longer prompt gets its HTTP 400. */
async function agentOn(handler: FakeHandler): Promise<{ agent: ReActAgent; sessions: MemorySessionStore; server: FakeOpenAIServer }> {
  const server = await FakeOpenAIServer.start({ contextSize: 8_192, handler });
  servers.push(server);
  const sessions = new MemorySessionStore();
  return { agent: new ReActAgent({ model: openAIModelFor(server), sessions }), sessions, server };
}

const compactionsOf = (events: readonly AgentEvent[]): CompactionEvent[] => events.filter((e): e is CompactionEvent => e.type === 'Compaction');

describe('a pasted log of 60,000 characters under an 8K window', () => {
  it('fails its own turn once; the next turn summarises it away with one summary, and the turns after run as usual', async () => {
    const { agent, sessions, server } = await agentOn((r) => (isSummaryRequest(r) ? { text: 'SUMMARY: the user pasted a huge log.' } : { text: 'Sure.' }));
    const paste = `Look at this log:\n${'ERROR disk full at sector 42\n'.repeat(2_100)}`;
    const first: AgentEvent[] = await collect(agent.stream(paste, { sessionId: 's' }));
    expect(first.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true });
    expect(server.requests.map((r) => r.status)).toEqual([400]); // refused once, nothing summarised for nothing
    const second: AgentEvent[] = await collect(agent.stream('Sorry, ignore that. What is 2+2?', { sessionId: 's' }));
    expect(second.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'Sure.' });
    const [compaction, ...more] = compactionsOf(second);
    expect(more).toEqual([]);
    expect(compaction).toMatchObject({ reason: 'context-limit', summarisedMessages: 2 });
    expect(compaction!.tokensAfter).toBeLessThan(1_000);
    for (let k = 3; k <= 5; k++) {
      const events: AgentEvent[] = await collect(agent.stream(`What is ${k}+${k}?`, { sessionId: 's' }));
      expect(events.at(-1) as RunEndEvent, `turn ${k}`).toMatchObject({ abnormal: false, text: 'Sure.' });
      expect(compactionsOf(events), `turn ${k}`).toEqual([]);
    }
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);
    expect(server.requests.filter((r) => r.status !== 200)).toHaveLength(1);
    const stored = sessions.load('s');
    expect(Math.max(...stored.map((m) => m.content?.length ?? 0))).toBeLessThan(1_000); // the paste is gone from the session
    expect(sessions.loadArchive('s')[0]).toEqual({ role: 'user', content: paste }); // and kept in the archive
    expect(alternationProblems(stored)).toEqual([]);
  }, 60_000);
});

describe('a first prompt of 20,000 characters that fits an 8K window, then twenty short turns', () => {
  it('is summarised with its turn: every compaction shrinks the session, and one or two summaries are asked, not one a turn', async () => {
    const { agent, server } = await agentOn((r) => (isSummaryRequest(r) ? { text: 'SUMMARY: we discussed the file.' } : { text: `Here is my analysis. ${'detail '.repeat(150)}` }));
    const start: AgentEvent[] = await collect(agent.stream(`Look at this file:\n${'const value = compute(42); // line\n'.repeat(560)}`, { sessionId: 's' }));
    expect(start.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    const compactions: CompactionEvent[] = [];
    for (let k = 2; k <= 21; k++) {
      const events: AgentEvent[] = await collect(agent.stream(`Question ${k} about it?`, { sessionId: 's' }));
      expect(events.at(-1), `turn ${k}`).toMatchObject({ type: 'RunEnd', abnormal: false });
      compactions.push(...compactionsOf(events));
    }
    expect(compactions.length).toBeGreaterThan(0);
    for (const c of compactions) expect(c.tokensAfter, JSON.stringify(c)).toBeLessThan(c.tokensBefore / 2);
    expect(server.requests.filter(isSummaryRequest).length).toBeLessThanOrEqual(2);
    expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
  }, 60_000);
});

describe('a compaction whose summary could not make the session smaller', () => {
  it('is not made, and no summary is asked: the prompt being worked on, carried whole, takes what the cut frees', async () => {
    const session: ChatMessage[] = [
      { role: 'user', content: `Review this:\n${'x'.repeat(20_000)}` },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'b.ts' },
    ];
    let asked = 0;
    const outcome = await firstValueFrom(
      compactMessages$({
        messages: session, window: 6_000, fixedTokens: 1_200, requestFixedTokens: 200, reason: 'context-limit',
        summarise: () => {
          asked++;
          return of({ text: 'SUMMARY' });
        },
      }),
    );
    expect(outcome).toBeUndefined();
    expect(asked).toBe(0);
  });
});
