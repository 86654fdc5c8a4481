/**
 * The room kept for the answer is the `maxTokens` the request sends: the agent's, else the
 * model's own default (`OpenAIChatModel` settings), which a server such as vLLM counts beside
 * the prompt (it refuses a prompt and `max_tokens` past the window). Sized by the fifth of the
 * window instead, the conversation grew into the room the answer was promised, and turns were
 * refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { OpenAIChatModel } from '../../../src/model/openai-chat-model.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { estimateUsage } from '../../support/fake-openai/usage-estimate.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

const WINDOW = 8_192;

describe('a model whose own settings set maxTokens', () => {
  it('keeps that room for the answer: a vLLM-like server refuses no turn', async () => {
    server = await FakeOpenAIServer.start({
      handler: (r) => {
        const prompt = estimateUsage(r.body, {}).prompt_tokens;
        const max = Number(r.body.max_tokens ?? 0);
        if (prompt + max > WINDOW) {
          return { status: 400, errorMessage: `This model's maximum context length is ${WINDOW} tokens. However, you requested ${prompt + max} tokens (${prompt} in the messages, ${max} in the completion).` };
        }
        return isSummaryRequest(r) ? { text: SUMMARY } : { text: `answer ${r.index} ${'w'.repeat(2_000)}` };
      },
    });
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, settings: { maxTokens: 4_096, contextWindow: WINDOW } });
    const agent = new ReActAgent({ model, sessions: new MemorySessionStore(), instructions: 'Be brief.' });
    for (let turn = 1; turn <= 16; turn++) {
      const events: AgentEvent[] = await collect(agent.stream(`question ${turn}`, { sessionId: 's' }));
      expect(events.at(-1), `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false });
    }
    expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(server.requests.filter(isSummaryRequest).length).toBeGreaterThan(0); // the conversation outgrew its room, and was compacted
  });
});
