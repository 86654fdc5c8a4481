/**
 * OpenAI counts the tool schemas of a refused request apart: "you requested T tokens (M in the
 * messages, F in the functions, C in the completion)". The ratio learned from a refusal divides
 * its count by the estimate of messages and tools, so the count must be M + F: M alone made the
 * ratio about 0.7 where the server counts as we estimate, the compaction (and its summary
 * request) was sized too large, and with 14 tools the turn failed (refused three times).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { refusedPromptTokens } from '../../../src/model/context-exceeded.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import { OpenAIChatModel } from '../../../src/model/openai-chat-model.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import type { Tool } from '../../../src/tools/tool.js';
import { collect } from '../../support/collect-events.js';
import { isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const WINDOW = 16_384;

/** 14 tools of about 1,000 tokens of schema each. */
const tools: Tool[] = Array.from({ length: 14 }, (_, i) => ({
  name: `tool${i}`,
  description: `Tool ${i}. ` + 'It does a careful thing with the files. '.repeat(100),
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  execute: () => 'done',
}));

/** 400 messages of about 50 tokens: over the window with the tools. */
const history = (): ChatMessage[] =>
  Array.from({ length: 200 }, (_, i): ChatMessage[] => [
    { role: 'user', content: `question ${i} `.padEnd(200, 'q') },
    { role: 'assistant', content: `answer ${i} `.padEnd(200, 'a') },
  ]).flat();

/** How a server words its refusal, given the tokens it counted in the messages, in the tools, and the answer's room. */
type Refusal = (messages: number, functions: number, completion: number) => string;

const REFUSALS: Readonly<Record<string, Refusal>> = {
  // OpenAI: the tools counted apart from the messages.
  'OpenAI, functions apart': (m, f, c) =>
    `This model's maximum context length is ${WINDOW} tokens. However, you requested ${m + f + c} tokens (${m} in the messages, ${f} in the functions, ${c} in the completion). Please reduce the length of the messages, functions, or completion.`,
  // vLLM: the tools are rendered into the prompt, and counted with the messages.
  'vLLM, functions in the messages': (m, f, c) =>
    `This model's maximum context length is ${WINDOW} tokens. However, you requested ${m + f + c} tokens (${m + f} in the messages, ${c} in the completion). Please reduce the length of the messages or completion.`,
};

/** A server counting as we estimate, refusing past {@link WINDOW} in `refusal`'s words. */
function server(refusal: Refusal): (request: RecordedRequest) => FakeReply {
  return (request) => {
    const messages = estimateTokens(request.body.messages ?? []);
    const functions = Math.ceil(JSON.stringify(request.body.tools ?? []).length / 4);
    const body = request.body as { max_tokens?: number; max_completion_tokens?: number };
    const completion = Number(body.max_completion_tokens ?? body.max_tokens ?? 0);
    if (messages + functions + completion > WINDOW) return { status: 400, errorMessage: refusal(messages, functions, completion) };
    const prompt = messages + functions;
    return { text: isSummaryRequest(request) ? SUMMARY : 'ok', usage: { prompt_tokens: prompt, completion_tokens: 1, total_tokens: prompt + 1 } };
  };
}

describe('a first turn over the window with 14 tools sent, refused once', () => {
  for (const [wording, refusal] of Object.entries(REFUSALS)) {
    it(`answers after one refusal, its summary written (${wording})`, { timeout: 60_000 }, async () => {
      const fake = await FakeOpenAIServer.start({ handler: server(refusal) });
      servers.push(fake);
      const sessions = new MemorySessionStore();
      sessions.append('s', history());
      const model = new OpenAIChatModel({ model: 'fake-model', baseURL: fake.baseURL, apiKey: 'test', maxRetries: 0 });
      const agent = new ReActAgent({ model, sessions, tools });
      const events: AgentEvent[] = await collect(agent.stream('And now?', { sessionId: 's' }));
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
      expect(fake.requests.map((r) => r.status)).toEqual([400, 200, 200]);
      const compactions = events.filter((e): e is CompactionEvent => e.type === 'Compaction');
      expect(compactions.map((c) => c.summaryError)).toEqual([undefined]);
    });
  }
});

describe('refusedPromptTokens counts the tools with the messages', () => {
  it.each([
    ['functions apart', 'However, you requested 9000 tokens (5000 in the messages, 3000 in the functions, 1000 in the completion).', 8000],
    ['functions apart, "and"', 'However, you requested 9000 tokens (5000 in the messages, and 3000 in the functions, 1000 in the completion).', 8000],
    ['no functions', 'However, you requested 6000 tokens (5000 in the messages, 1000 in the completion).', 5000],
  ])('%s', (_wording, said, prompt) => {
    const message = `This model's maximum context length is 4096 tokens. ${said}`;
    expect(refusedPromptTokens(new Error('model "m": HTTP 400', { cause: new Error(message) }))).toBe(prompt);
  });
});
