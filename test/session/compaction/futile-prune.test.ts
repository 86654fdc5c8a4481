/**
 * When no summary can make the request fit (the newest step alone, a tool result not read yet
 * of some 15,000 tokens, overflows an 8K window), pruning the older tool results cannot
 * either: the request goes as it is and fails, so pruning would only take outputs from the
 * model for nothing (the archive kept them, but the next turns would not see them). So nothing
 * is pruned then, as nothing is when the system prompt and tool schemas alone fill the window
 * (`context-window-too-small`). When pruning does make the request fit, it still prunes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import type { Tool } from '../../../src/tools/tool.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest } from '../../support/compaction-kit.js';
import { conversationProblems } from '../../support/conversation.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { TEXT_PARAMETERS } from '../../support/test-tools.js';

const BIG = 'B'.repeat(12_000); // some 3,000 tokens: fits, and prunes
const big: Tool<{ text: string }> = { name: 'big', description: 'Reads a big file.', parameters: TEXT_PARAMETERS, execute: () => BIG };
const huge: Tool<{ text: string }> = { name: 'huge', description: 'Dumps a lot.', parameters: TEXT_PARAMETERS, execute: () => 'H'.repeat(60_000) };

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const endOf = (events: readonly AgentEvent[]): RunEndEvent => events.at(-1) as RunEndEvent;
const compactions = (events: readonly AgentEvent[]): CompactionEvent[] => events.filter((e): e is CompactionEvent => e.type === 'Compaction');

describe('an older tool result beside a newest one that alone overflows the window', () => {
  it('is not pruned while no compaction can make the request fit, and is pruned once pruning does', async () => {
    server = await FakeOpenAIServer.start({
      contextSize: 8_192,
      handler: (r) => {
        if (isSummaryRequest(r)) return { text: 'SUMMARY' };
        const last = r.body.messages!.at(-1)!;
        if (last.role === 'tool') return { text: 'read it' };
        if (/read big/.test(String(last.content))) return { toolCalls: [{ name: 'big', arguments: { text: 'all' } }] };
        return /dump/.test(String(last.content)) ? { toolCalls: [{ name: 'huge', arguments: { text: 'all' } }] } : { text: 'plain answer' };
      },
    });
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [big, huge] });
    expect(endOf(await collect(agent.stream('read big', { sessionId: 's' })))).toMatchObject({ abnormal: false, text: 'read it' });

    const failed: AgentEvent[] = await collect(agent.stream('dump it', { sessionId: 's' }));
    expect(endOf(failed)).toMatchObject({ abnormal: true, error: expect.stringMatching(/does not fit the context window.*so it was not sent again/) });
    expect(compactions(failed)).toEqual([]);
    expect(server.requests.filter(isSummaryRequest)).toEqual([]);
    // The older result is still whole, in the session the next turn loads.
    expect(sessions.load('s').filter((m) => m.role === 'tool').map((m) => m.content.length)).toEqual([BIG.length, 60_000]);

    // Both results are old now: pruning them makes the request fit, so they are pruned.
    const next: AgentEvent[] = await collect(agent.stream('and now?', { sessionId: 's' }));
    expect(endOf(next)).toMatchObject({ abnormal: false, text: 'plain answer' });
    expect(compactions(next)).toEqual([expect.objectContaining({ prunedToolResults: 2, summarisedMessages: 0, archived: true })]);
    expect(sessions.load('s').filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      expect.stringMatching(/^\[output pruned to save context/),
      expect.stringMatching(/^\[output pruned to save context/),
    ]);
    expect(sessions.loadArchive('s').filter((m) => m.role === 'tool').map((m) => m.content.length)).toEqual([BIG.length, 60_000]);
    expect(conversationProblems(sessions.load('s'))).toEqual([]);
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});
