import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { contextExceeded } from '../../../src/model/context-exceeded.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { alternationProblems, isSummaryRequest, pagedHistory, SUMMARY } from '../../support/compaction-kit.js';

const LLAMA_REFUSAL = 'request (9000 tokens) exceeds the available context size (4096 tokens), try increasing it';

/** Refuses the first `refusals` answer requests as llama.cpp does; summaries and later requests are answered. */
function refusing(refusals: number): (request: RecordedRequest) => FakeReply {
  let refused = 0;
  return (request) => {
    if (isSummaryRequest(request)) return { text: SUMMARY };
    if (refused++ < refusals) return { status: 400, errorMessage: LLAMA_REFUSAL };
    return { text: 'the answer' };
  };
}

describe('a request the server refuses as too long', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('is compacted with the window the error names and sent once more, which succeeds', async () => {
    server = await FakeOpenAIServer.start({ handler: refusing(1) }); // no /props: the window is unknown until the error
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory());
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
    const events: AgentEvent[] = await collect(agent.stream('And topic 7?', { sessionId: 's' }));
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction).toMatchObject({ reason: 'context-exceeded', contextWindow: 4096, sessionId: 's', archived: true });
    expect(events.filter((e) => e.type === 'RunEnd')).toEqual([events.at(-1)]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    // Sent again, shorter: the retried request is the last, and the compacted conversation.
    const answers = server.requests.filter((r) => !isSummaryRequest(r));
    expect(answers).toHaveLength(2);
    expect(answers[1]!.rawBody.length).toBeLessThan(answers[0]!.rawBody.length / 2);
    // The store holds the compacted session and its archive the whole transcript.
    const stored = sessions.load('s');
    expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(sessions.loadArchive('s')).length / 2);
    expect(alternationProblems(stored)).toEqual([]);
    expect(sessions.loadArchive('s')).toEqual([...pagedHistory(), { role: 'user', content: 'And topic 7?' }, { role: 'assistant', content: 'the answer' }]);
  });

  it('fails the run with one abnormal RunEnd saying so when the retried request is refused too', async () => {
    server = await FakeOpenAIServer.start({ handler: refusing(2) });
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory());
    const events: AgentEvent[] = await collect(new ReActAgent({ model: openAIModelFor(server), sessions }).stream('And topic 7?', { sessionId: 's' }));
    const ends = events.filter((e) => e.type === 'RunEnd');
    expect(ends).toEqual([events.at(-1)]);
    expect(ends[0]).toMatchObject({ abnormal: true });
    const error = (ends[0] as { error?: string }).error ?? '';
    expect(error).toMatch(/still does not fit the context window of model "fake-model" after compacting/);
    expect(error).toContain('exceeds the available context size (4096 tokens)');
    expect(server.requests.filter((r) => !isSummaryRequest(r))).toHaveLength(2); // retried once, not more
  });

  it('is not sent again when it names no window and compaction changes nothing: the turn ends at once, saying why', async () => {
    // Older llama.cpp names no window; a lone prompt has nothing to prune or summarise, so a resend would be the same bytes.
    server = await FakeOpenAIServer.start({ handler: () => ({ status: 400, errorMessage: 'the request exceeds the available context size, try increasing it' }) });
    const sessions = new MemorySessionStore();
    const events: AgentEvent[] = await collect(new ReActAgent({ model: openAIModelFor(server), sessions }).stream(`Read this: ${'x'.repeat(40_000)}`, { sessionId: 's' }));
    expect(events.filter((e) => e.type === 'RunEnd')).toEqual([events.at(-1)]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/cannot make it fit, so it was not sent again .*exceeds the available context size/) });
    expect(events.some((e) => e.type === 'Compaction')).toBe(false);
    expect(server.requests.map((r) => r.status)).toEqual([400]); // asked once, not twice
  });
});

describe('contextExceeded reads the servers\' words', () => {
  it.each([
    ['llama.cpp', LLAMA_REFUSAL, 4096],
    ['llama.cpp, older', 'the request exceeds the available context size, try increasing it', undefined],
    ['llama.cpp in a stream', 'Context size has been exceeded.', undefined],
    ['vLLM', "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.", 32768],
    ['OpenAI', 'context_length_exceeded: This model\'s maximum context length is 128000 tokens.', 128000],
  ])('%s', (_server, message, window) => {
    expect(contextExceeded(new Error('model "m": HTTP 400', { cause: new Error(message) }))).toEqual(window === undefined ? {} : { window });
  });

  it('and nothing else', () => {
    expect(contextExceeded(new Error('HTTP 500: template error'))).toBeUndefined();
  });
});
