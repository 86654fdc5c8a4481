/**
 * docs/telemetry.md: one `chat <model>` span per model request. A compaction's summary is a
 * model request like a step's (charged to the budget, counted in the run's usage), so it is
 * traced like one: under the run's span, with the usage its server reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { collect } from '../support/collect-events.js';
import { chatHistory, isSummaryRequest, pageTool, SUMMARY } from '../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeHandler } from '../support/fake-openai-server.js';
import { useInMemoryTracing } from '../support/in-memory-tracing.js';
import { openAIModelFor } from '../support/openai-model.js';

const exporter = useInMemoryTracing();
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  exporter.reset();
});

describe('the summary request of a compaction', () => {
  it('has its own chat span under the run, with its usage; the spans add up to the run', async () => {
    let steps = 0;
    const handler: FakeHandler = (r) => {
      if (isSummaryRequest(r)) return { text: SUMMARY, usage: { prompt_tokens: 4_000, completion_tokens: 100, total_tokens: 4_100 } };
      steps++;
      // The first request is refused as too long: the run compacts, with a summary, and sends it again.
      if (steps === 1) return { status: 400, errorMessage: "This model's maximum context length is 700 tokens" };
      return { text: 'the answer', usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 } };
    };
    const server = await FakeOpenAIServer.start({ handler });
    servers.push(server);
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(4));
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [pageTool] });
    const events = await collect(agent.stream('next question', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);

    const spans = exporter.getFinishedSpans();
    const run = spans.find((s) => s.name.startsWith('invoke_agent'))!;
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(chats).toHaveLength(server.requests.length); // the refused one, the summary, the answered one
    for (const chat of chats) expect(chat.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    const summary = chats.find((s) => s.attributes['gen_ai.usage.input_tokens'] === 4_000);
    expect(summary?.attributes).toMatchObject({ 'gen_ai.usage.output_tokens': 100, 'gen_ai.response.finish_reasons': ['stop'] });
    expect(summary?.attributes['rxharness.chat.stopped']).toBeUndefined();
    const input = chats.reduce((n, s) => n + Number(s.attributes['gen_ai.usage.input_tokens'] ?? 0), 0);
    expect(input).toBe(run.attributes['gen_ai.usage.input_tokens']);
  });
});
