/**
 * A refusal that names the window is not resent when no compaction can shorten the request
 * (futile-compaction.test.ts counts one refusal a turn); a server that says a larger window
 * than it takes (`/props` says 16K, it refuses past 4K) is another case: the refusal names a
 * smaller window, the compaction acts on it, and the request is sent once more and answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest } from '../../support/compaction-kit.js';
import { estimateUsage, FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

const TAKES = 4_096;

/** `turns` turns of long chat (some 800 tokens each): pruning frees nothing, only a summary does. */
function chatHistory(turns: number): ChatMessage[] {
  return Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `Tell me about topic ${i + 1}` },
    { role: 'assistant', content: `topic ${i + 1}: ${'the quick brown fox jumps over the lazy dog. '.repeat(70)}` },
  ]).flat();
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a server that says a larger window than it takes', () => {
  it('refuses once, naming the window it takes; the compacted request is sent once more and answered', async () => {
    server = await FakeOpenAIServer.start({
      contextSize: 16_384, // what `/props` says
      handler: (r) => {
        if (isSummaryRequest(r)) return { text: 'SUMMARY' };
        const prompt = estimateUsage(r.body, {}).prompt_tokens;
        if (prompt > TAKES) return { status: 400, errorMessage: `request (${prompt} tokens) exceeds the available context size (${TAKES} tokens), try increasing it` };
        return { text: 'the answer' };
      },
    });
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(8));
    const events: AgentEvent[] = await collect(new ReActAgent({ model: openAIModelFor(server), sessions }).stream('And topic 9?', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    const compactions = events.filter((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compactions).toMatchObject([{ reason: 'context-exceeded', contextWindow: TAKES }]);
    expect(compactions[0]!.summarisedMessages).toBeGreaterThan(0);
    expect(server.requests.filter((r) => !isSummaryRequest(r)).map((r) => r.status)).toEqual([400, 200]);
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});
