/**
 * A summary the server cut at its `max_tokens` (`finish_reason: "length"`) may end
 * mid-sentence. It is kept (its start is what the model wrote of the turns), but the
 * `Compaction` event says so in its `summaryError`, as a step's cut answer is reported: else
 * a compaction that lost the end of its summary would look like one that went well.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { chatHistory, isSummaryRequest } from '../../support/compaction-kit.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

async function compactWith(finishReason: 'length' | 'stop'): Promise<{ events: AgentEvent[]; stored: string }> {
  server = await FakeOpenAIServer.start({ handler: (r) => (isSummaryRequest(r) ? { text: 'the user asked about topics 1 to', finishReason } : { text: 'the answer' }) });
  const sessions = new MemorySessionStore();
  sessions.append('s', chatHistory(4));
  const agent = new ReActAgent({ model: openAIModelFor(server), sessions, settings: { contextWindow: 1_500 } });
  const events: AgentEvent[] = await collect(agent.stream('next question', { sessionId: 's' }));
  return { events, stored: String(sessions.load('s')[0]?.content) };
}

describe('a summary cut at its max_tokens', () => {
  it('is kept, and the Compaction event says it was cut', async () => {
    const { events, stored } = await compactWith('length');
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    expect(stored).toContain('the user asked about topics 1 to');
    const compaction = events.find((e) => e.type === 'Compaction');
    expect(compaction).toMatchObject({ summarisedMessages: 8, summaryError: expect.stringMatching(/stopped the summary at its limit of \d+ tokens \(finish_reason "length"\)/) });
  });

  it('finished as usual, has no summaryError', async () => {
    const { events, stored } = await compactWith('stop');
    expect(stored).toContain('the user asked about topics 1 to');
    expect(events.find((e) => e.type === 'Compaction')).not.toHaveProperty('summaryError');
  });
});
