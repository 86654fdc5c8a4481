import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { collect } from '../../support/collect-events.js';
import { conversationProblems } from '../../support/conversation.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { alternationProblems, isSummaryRequest, pageText, pageTool, pageTurns, SUMMARY } from '../../support/compaction-kit.js';
import { makeWorkspace, type TestWorkspace } from '../../support/tool-context.js';

const TURNS = 40;
const CONTEXT = 8_192;

describe('a long session under a small context window', () => {
  let server: FakeOpenAIServer | undefined;
  let ws: TestWorkspace | undefined;
  afterEach(async () => {
    await server?.close();
    await ws?.cleanup();
  });

  it(`answers all ${TURNS} turns of about 3 KB of tool output each under ${CONTEXT} tokens, streams Compaction events and archives the whole transcript`, async () => {
    // A llama.cpp-like server: /props says 8192, and a longer prompt gets its HTTP 400.
    server = await FakeOpenAIServer.start({ contextSize: CONTEXT, handler: pageTurns });
    ws = await makeWorkspace('rxharness-compaction-');
    const sessions = new FileSessionStore(ws.dir, { home: ws.home });
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: ws.dir, homeDir: ws.home, tools: [pageTool], sessions });
    const compactions: CompactionEvent[] = [];
    const ends: RunEndEvent[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      const events: AgentEvent[] = await collect(engine.stream(`Tell me about topic ${turn}`, { sessionId: 'long' }));
      compactions.push(...events.filter((e): e is CompactionEvent => e.type === 'Compaction'));
      const end = events.at(-1) as RunEndEvent;
      expect(end, `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false, text: `answer ${turn}` });
      ends.push(end);
    }
    expect(ends).toHaveLength(TURNS);
    // No request was refused: every one fit the window.
    expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(server.propsRequests).toBe(1); // asked once, then known
    // Compacted several times, each time from over the limit to well under it.
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    for (const c of compactions) {
      expect(c).toMatchObject({ sessionId: 'long', reason: 'context-limit', contextWindow: CONTEXT, archived: true });
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
      expect(c.tokensAfter).toBeLessThan(CONTEXT * 0.75);
      expect(c.prunedToolResults + c.summarisedMessages).toBeGreaterThan(0);
    }
    expect(compactions.some((c) => c.prunedToolResults > 0)).toBe(true);
    expect(compactions.some((c) => c.summarisedMessages > 0)).toBe(true);
    // The summary reached the model in place of the old turns.
    const summaries = server.requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(0);
    expect(server.requests.at(-1)!.body.messages!.some((m) => m.role === 'user' && m.content.includes(SUMMARY))).toBe(true);
    // The stored session is short and still valid for a strict template.
    const stored = await sessions.load('long');
    expect(stored.length).toBeLessThan(TURNS * 4);
    expect(conversationProblems(stored)).toEqual([]);
    expect(alternationProblems(stored)).toEqual([]);
    // The archive holds the whole transcript, every tool output whole, in order.
    const archive = await sessions.loadArchive('long');
    expect(archive).toEqual(transcript(TURNS, archive));
  }, 60_000);
});

/** The transcript the 40 turns make: prompt, call, 3 KB result, answer (call ids as the archive has them). */
function transcript(turns: number, archive: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const call = archive[out.length + 1];
    const id = call?.role === 'assistant' ? call.tool_calls?.[0]?.id ?? '?' : '?';
    out.push(
      { role: 'user', content: `Tell me about topic ${turn}` },
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'fetch_page', arguments: JSON.stringify({ text: `topic ${turn}` }) } }] },
      { role: 'tool', tool_call_id: id, content: pageText(`topic ${turn}`) },
      { role: 'assistant', content: `answer ${turn}` },
    );
  }
  return out;
}
