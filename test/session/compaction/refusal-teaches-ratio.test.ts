/**
 * A session of 10,000 tiny messages under a 32K window, on a server that counts four times
 * our estimate (each message's template costs more than its text). Its first request is
 * refused; before, no ratio was known yet (it is learned from a response's usage), so the
 * compaction sized the session by our estimate, the resend was refused again and the turn
 * failed. The refusal says how many tokens the server counted: the ratio is learned from it,
 * and the resend fits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { refusedPromptTokens } from '../../../src/model/context-exceeded.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import { OpenAIChatModel } from '../../../src/model/openai-chat-model.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const WINDOW = 32_768;
const FACTOR = 4;

/** 10,000 tiny messages: 5,000 turns of one word each way. */
const tinyHistory = (): ChatMessage[] =>
  Array.from({ length: 5_000 }, (_, i): ChatMessage[] => [
    { role: 'user', content: `q${i % 10}` },
    { role: 'assistant', content: `a${i % 10}` },
  ]).flat();

/** A server counting {@link FACTOR} times our estimate, refusing as llama-server does (or as OpenAI does) past {@link WINDOW}. */
function countingServer(refusal: (counted: number) => string): (request: RecordedRequest) => FakeReply {
  return (request) => {
    const counted = FACTOR * estimateTokens(request.body.messages ?? []);
    if (counted > WINDOW) return { status: 400, errorMessage: refusal(counted) };
    const text = isSummaryRequest(request) ? SUMMARY : 'ok';
    return { text, usage: { prompt_tokens: counted, completion_tokens: 1, total_tokens: counted + 1 } };
  };
}

const REFUSALS: Readonly<Record<string, (counted: number) => string>> = {
  'llama-server': (n) => `request (${n} tokens) exceeds the available context size (${WINDOW} tokens), try increasing it`,
  OpenAI: (n) => `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${n} tokens. Please reduce the length of the messages.`,
};

describe('10,000 tiny stored messages under a 32K window, on a server counting four times our estimate', () => {
  for (const [server, refusal] of Object.entries(REFUSALS)) {
    it(`answers the first turn after at most one refusal (${server}'s words): the ratio is learned from the refusal`, { timeout: 60_000 }, async () => {
      const fake = await FakeOpenAIServer.start({ handler: countingServer(refusal) });
      servers.push(fake);
      const sessions = new MemorySessionStore();
      sessions.append('s', tinyHistory());
      const model = new OpenAIChatModel({ model: 'fake-model', baseURL: fake.baseURL, apiKey: 'test', maxRetries: 0, settings: { contextWindow: WINDOW } });
      const agent = new ReActAgent({ model, sessions });
      const events: AgentEvent[] = await collect(agent.stream('And now?', { sessionId: 's' }));
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
      expect(fake.requests.filter((r) => r.status !== 200).length).toBeLessThanOrEqual(1);
      const compactions = events.filter((e): e is CompactionEvent => e.type === 'Compaction');
      expect(compactions.length).toBeGreaterThan(0);
      // The summary request was sized by the ratio too: it was written, not refused.
      expect(compactions.map((c) => c.summaryError)).toEqual(compactions.map(() => undefined));
      expect(alternationProblems(sessions.load('s'))).toEqual([]);
    });
  }
});

describe('refusedPromptTokens reads how many tokens the server counted', () => {
  it.each([
    ['llama.cpp', 'request (9000 tokens) exceeds the available context size (4096 tokens), try increasing it', 9000],
    ['OpenAI', "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.", 130512],
    ['OpenAI with the answer', "This model's maximum context length is 4097 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).", 4000],
    ['vLLM', "This model's maximum context length is 32768 tokens. However, your request has 40000 input tokens.", 40000],
    ['llama.cpp, older', 'the request exceeds the available context size, try increasing it', undefined],
    ['no refusal', 'request (9000 tokens) took too long', undefined],
  ])('%s', (_server, message, prompt) => {
    expect(refusedPromptTokens(new Error('model "m": HTTP 400', { cause: new Error(message) }))).toBe(prompt);
  });
});
