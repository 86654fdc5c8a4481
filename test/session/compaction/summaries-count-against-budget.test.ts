/**
 * What a step's compaction summaries use is charged to the token budget only when the step
 * ends, with its answer. Its later requests (another summary, the step's own request, its
 * resend after a refusal) must still count it as spent when they look at the budget, else one
 * step sends request after request against a pool its summaries had already spent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { chatHistory, isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

/** Each summary costs 4,100 tokens: two spend a 5,000-token budget. */
const SUMMARY_USAGE = { prompt_tokens: 4_000, completion_tokens: 100, total_tokens: 4_100 };

describe('a step whose summaries spent its budget', () => {
  it('is not resent after its refusal: the run ends saying the summaries spent the budget', async () => {
    server = await FakeOpenAIServer.start({
      handler: (r) => {
        if (isSummaryRequest(r)) return { text: SUMMARY, usage: SUMMARY_USAGE };
        // The step's first request is refused as too long: compacted again (a second summary), then resent.
        if (server!.requests.filter((q) => !isSummaryRequest(q)).length === 1) return { status: 400, errorMessage: "This model's maximum context length is 700 tokens" };
        return { text: 'the answer', usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 } };
      },
    });
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(6));
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tokenBudget: 5_000, settings: { contextWindow: 3_000 } });
    const events: AgentEvent[] = await collect(agent.stream('next question', { sessionId: 's' }));
    // The step's request after the first summary (900 tokens were left), then the second summary (likewise): no resend.
    expect(server.requests.map((r) => (isSummaryRequest(r) ? 'summary' : 'step'))).toEqual(['summary', 'step', 'summary']);
    expect(events.at(-1)).toMatchObject({
      type: 'RunEnd',
      abnormal: true,
      error: expect.stringMatching(/^the token budget is spent: 8200 of 5000 tokens .*\(8200 of them by this step's compaction summaries .*so no further model request was made$/),
    });
  });
});
