/**
 * A summary the server stopped at its `max_tokens` (`finish_reason: "length"`) that is also
 * longer than the compaction asked for (servers count tokens their own way: five characters a
 * token and more is common) has its middle cut as well. The `Compaction` event's
 * `summaryError` says both, not that the summary "was kept as it is": the model reads a
 * `[... N characters cut ...]` marker the user was never told of.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../src/events/agent-event.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { collect } from '../support/collect-events.js';
import { chatHistory, isSummaryRequest } from '../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

/** A run on ten long turns against an 8,192-token server whose summariser replies `summary`: its Compaction and the stored summary. */
async function compactWith(summary: FakeReply): Promise<{ compaction: CompactionEvent | undefined; stored: string; end: AgentEvent | undefined }> {
  server = await FakeOpenAIServer.start({ contextSize: 8_192, handler: (r) => (isSummaryRequest(r) ? summary : { text: 'the answer' }) });
  const sessions = new MemorySessionStore();
  sessions.append('s', chatHistory(10));
  const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
  const events: AgentEvent[] = await collect(agent.stream('And topic 11?', { sessionId: 's' }));
  const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
  return { compaction, stored: String(sessions.load('s')[0]?.content), end: events.at(-1) };
}

describe('a summary stopped at its max_tokens and longer than asked', () => {
  it('is cut in its middle, and summaryError says both that the server stopped it and that its middle was cut', async () => {
    const { compaction, stored, end } = await compactWith({ text: 'S'.repeat(12_000), finishReason: 'length' });
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    expect(stored).toMatch(/characters cut/);
    expect(compaction?.summaryError).toMatch(/stopped the summary at its limit of \d+ tokens \(finish_reason "length"\)/);
    expect(compaction?.summaryError).toMatch(/over the \d+ \(\d+ tokens\) asked for: its middle was cut/);
    expect(compaction?.summaryError).not.toMatch(/kept as it is/);
  });

  it('within what was asked, is kept whole and summaryError says only that the server stopped it', async () => {
    const { compaction, stored } = await compactWith({ text: 'the user asked about topics 1 to', finishReason: 'length' });
    expect(stored).toContain('the user asked about topics 1 to');
    expect(stored).not.toMatch(/characters cut/);
    expect(compaction?.summaryError).toMatch(/stopped the summary at its limit of \d+ tokens \(finish_reason "length"\): it may end mid-sentence$/);
  });
});
