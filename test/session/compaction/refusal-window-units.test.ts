/**
 * A refusal that names no window teaches a little less than the refused request, in the
 * server's tokens: compaction divides a window by how much higher than our estimate the
 * server counts (its last usage), so a window learned in estimated tokens would be cut by
 * that ratio once more, and a server counting twice our estimate would have every request
 * compacted to half of what fits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { estimateUsage, FakeOpenAIServer, type RecordedRequest } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { isSummaryRequest, pagedHistory, SUMMARY } from '../../support/compaction-kit.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * The window a refusal naming none teaches, against a server that counts `factor` times the
 * fake's estimate: the first turn (short) is taken with that usage, the second (long) refused.
 */
async function learnedWindow(factor: number): Promise<number | undefined> {
  let refused = false;
  const server = await FakeOpenAIServer.start({
    handler: (request: RecordedRequest) => {
      if (isSummaryRequest(request)) return { text: SUMMARY };
      const counted = estimateUsage(request.body, {}).prompt_tokens * factor;
      if (!refused && request.rawBody.length > 4_000) {
        refused = true;
        return { status: 400, errorMessage: 'the context size has been exceeded' };
      }
      return { text: 'ok', usage: { prompt_tokens: counted, completion_tokens: 1, total_tokens: counted + 1 } };
    },
  });
  servers.push(server);
  const sessions = new MemorySessionStore();
  const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
  await collect(agent.stream('hello', { sessionId: 's' }));
  sessions.append('s', pagedHistory());
  const events: AgentEvent[] = await collect(agent.stream('And topic 7?', { sessionId: 's' }));
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  return events.find((e): e is CompactionEvent => e.type === 'Compaction' && e.reason === 'context-exceeded')?.contextWindow;
}

describe('a refusal that names no window', () => {
  it('teaches it in the server tokens: a server counting twice as many learns a window twice as large', async () => {
    // Usage a quarter and half of the fake's estimate: both within the ratios compaction takes (0.5 to 4).
    const once = await learnedWindow(0.25);
    const twice = await learnedWindow(0.5);
    expect(once).toBeGreaterThan(0);
    expect(twice! / once!).toBeGreaterThan(1.8);
    expect(twice! / once!).toBeLessThan(2.2);
  });
});
