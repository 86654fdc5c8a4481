/**
 * The limit on what a summary may stream (text and reasoning together, {@link summaryStreamLimit})
 * is a bound, not a trap: a reply of exactly that many characters is read to its end and kept
 * as written; one character more is stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { summaryStreamLimit } from '../../../src/agent/compaction-summary.js';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { isSummaryRequest, pagedHistory } from '../../support/compaction-kit.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Mostly reasoning, then a short summary: `over` characters past the limit in all. */
async function runWith(over: number): Promise<{ compaction: CompactionEvent | undefined; first: string; aborted: boolean | undefined; end: AgentEvent | undefined }> {
  const server = await FakeOpenAIServer.start({
    contextSize: 4_096,
    handler: (r) => {
      if (!isSummaryRequest(r)) return { text: 'the answer' };
      const limit = summaryStreamLimit(r.body.max_tokens as number);
      return { thinking: 't'.repeat(limit - 100), text: 'S'.repeat(100 + over), chunkSize: 1_000 };
    },
  });
  servers.push(server);
  const sessions = new MemorySessionStore();
  sessions.append('s', pagedHistory(8).map((m) => (m.role === 'tool' ? { ...m, content: 'short' } : m.role === 'assistant' && m.content ? { ...m, content: `${m.content} ${'words '.repeat(400)}` } : m)));
  const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
  const events: AgentEvent[] = await collect(agent.stream('And topic 9?', { sessionId: 's' }));
  const summary = server.requests.find(isSummaryRequest);
  if (summary) await server.waitForClosed(summary.index, 30_000);
  return { compaction: events.find((e): e is CompactionEvent => e.type === 'Compaction'), first: String(sessions.load('s')[0]!.content), aborted: summary?.aborted, end: events.at(-1) };
}

describe('a summary streamed with reasoning', () => {
  it('of exactly the limit is read to its end and kept whole', async () => {
    const { compaction, first, aborted, end } = await runWith(0);
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    expect(compaction).toMatchObject({ summarisedMessages: expect.any(Number) });
    expect(compaction?.summaryError).toBeUndefined();
    expect(aborted).toBe(false);
    expect(first).toContain(`\n${'S'.repeat(100)}\n`);
  });

  it('of one character more is stopped, its start kept', async () => {
    const { compaction, first, end } = await runWith(1);
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    // (Not `aborted`: the character over is in the reply's last delta, all sent by then.)
    expect(compaction?.summaryError).toMatch(/streamed over \d+ characters/);
    expect(first).toMatch(/\nS+\n/);
  });
});
