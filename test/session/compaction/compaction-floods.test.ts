/**
 * Floods against compaction through the real `openai` client and the fake server: a tool
 * output larger than the whole window, a model whose every answer ignores its limit, a
 * conversation of hundreds of turns, and a store that fails to replace the session. None
 * hangs a run, bricks the session or lets it grow without bound.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import type { Tool } from '../../../src/tools/tool.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest } from '../../support/compaction-kit.js';
import { conversationProblems } from '../../support/conversation.js';
import { FakeOpenAIServer, type FakeHandler } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { TEXT_PARAMETERS } from '../../support/test-tools.js';

const CONTEXT = 4_096;
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serverWith(handler: FakeHandler): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start({ contextSize: CONTEXT, handler });
  servers.push(server);
  return server;
}

const sizeOf = (messages: readonly ChatMessage[]): number => JSON.stringify(messages).length;
const refused = (server: FakeOpenAIServer): number => server.requests.filter((r) => r.status === 400).length;

describe('a tool output larger than the whole window', () => {
  it.each([
    ['plain', ''],
    ['dressed as a pruned one (so pruning passes it over)', '[output pruned to save context: this tool result (9 characters) is no longer shown]'],
  ])('(%s) fails its turn saying so, refused once, and the next turn of the session makes room for it and answers', async (_, head) => {
    const dump: Tool<{ text: string }> = { name: 'dump', description: 'Dumps a file.', parameters: TEXT_PARAMETERS, execute: () => head + 'x'.repeat(200_000) };
    const server = await serverWith((r) => {
      if (isSummaryRequest(r)) return { text: 'SUMMARY' };
      const last = r.body.messages?.at(-1);
      if (last?.role === 'user' && /dump it/.test(last.content)) return { toolCalls: [{ name: 'dump', arguments: { text: 'big' } }] };
      return { text: 'fine' };
    });
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [dump] });
    const first: AgentEvent[] = await collect(agent.stream('dump it', { sessionId: 's' }));
    expect(first.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/does not fit the context window.*cannot make it fit, so it was not sent again/) });
    expect(refused(server)).toBe(1); // no compaction can shorten it: not sent again
    expect(conversationProblems(sessions.load('s'))).toEqual([]);
    const next: AgentEvent[] = await collect(agent.stream('now something small', { sessionId: 's' }));
    expect(next.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'fine' });
    const compaction = next.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction!.prunedToolResults + compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(compaction!.tokensAfter).toBeLessThan(CONTEXT);
    expect(isStrictConversation(sessions.load('s'))).toBe(true);
  }, 60_000);
});

describe('a model whose every answer ignores its limit (40 KB)', () => {
  it('answers 30 turns: every request fits, the session stays bounded, the transcript is archived whole', async () => {
    const server = await serverWith((r) => (isSummaryRequest(r) ? { text: 'S'.repeat(50_000), chunkSize: 50_000 } : { text: `${'A'.repeat(40_000)} end`, chunkSize: 50_000 }));
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
    let largest = 0;
    for (let turn = 1; turn <= 30; turn++) {
      const end = (await collect(agent.stream(`turn ${turn}`, { sessionId: 's' }))).at(-1);
      expect(end, `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false });
      largest = Math.max(largest, sizeOf(sessions.load('s')));
    }
    // A 40 KB answer cannot fit a 4,096-token window: each turn's own answer is the most the session holds besides a cut summary.
    expect(largest).toBeLessThan(3 * 41_000);
    expect(refused(server)).toBe(0);
    expect(sessions.loadArchive('s').filter((m) => m.role === 'user' && /^turn \d+$/.test(m.content))).toHaveLength(30);
    expect(isStrictConversation(sessions.load('s'))).toBe(true);
  }, 120_000);
});

describe('a conversation of 300 turns under a 4,096-token window', () => {
  it('answers every turn, compacts again and again, keeps the session short and the whole transcript archived', async () => {
    const server = await serverWith((r) => (isSummaryRequest(r) ? { text: 'SUMMARY of the turns so far.' } : { text: `answer to ${String(r.body.messages?.at(-1)?.content).slice(-20)} ${'detail '.repeat(60)}` }));
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
    let compactions = 0;
    for (let turn = 1; turn <= 300; turn++) {
      const events = await collect(agent.stream(`question ${turn}`, { sessionId: 's' }));
      expect(events.at(-1), `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false });
      compactions += events.filter((e) => e.type === 'Compaction').length;
    }
    expect(refused(server)).toBe(0);
    expect(compactions).toBeGreaterThan(10);
    expect(sizeOf(sessions.load('s'))).toBeLessThan(CONTEXT * 4);
    expect(sessions.loadArchive('s')).toHaveLength(600);
    expect(isStrictConversation(sessions.load('s'))).toBe(true);
  }, 180_000);
});

describe('a store that fails to replace the session', () => {
  it.each([
    ['throws', (): void => {
      throw new Error('disk full');
    }],
    ['rejects', (): Promise<void> => Promise.reject(new Error('disk full'))],
  ] as const)('(%s): the run ends abnormally saying why, the session keeps its messages, and the next turn runs', async (_, fail) => {
    const server = await serverWith((r) => (isSummaryRequest(r) ? { text: 'SUMMARY' } : { text: `answer ${'words '.repeat(300)}` }));
    let failing = true;
    class FailingStore extends MemorySessionStore {
      override replace(sessionId: string, messages: readonly ChatMessage[]): void | Promise<void> {
        return failing ? fail() : super.replace(sessionId, messages);
      }
    }
    const sessions = new FailingStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
    let failed: AgentEvent | undefined;
    for (let turn = 1; turn <= 40 && !failed; turn++) {
      const end = (await collect(agent.stream(`question ${turn}`, { sessionId: 's' }))).at(-1);
      if (end?.type === 'RunEnd' && end.abnormal) failed = end;
    }
    expect(failed).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/disk full/) });
    const kept = sessions.load('s');
    expect(kept.filter((m) => m.role === 'user')).toHaveLength(kept.filter((m) => m.role === 'assistant').length);
    expect(isStrictConversation(kept)).toBe(true);
    failing = false;
    const next = await agent.call('one more', { sessionId: 's' });
    expect(next.abnormal, next.error).toBe(false);
    expect(isStrictConversation(sessions.load('s'))).toBe(true);
  }, 120_000);
});

/** A stored session every strict template accepts. */
function isStrictConversation(messages: readonly ChatMessage[]): boolean {
  return conversationProblems(messages).length === 0 && alternationProblems(messages).length === 0;
}
