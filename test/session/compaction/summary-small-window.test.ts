/**
 * A summariser with a small window (1,024 tokens) is asked for a summary that fits it: the
 * request's `max_tokens` counts in the window beside its prompt (vLLM and OpenAI refuse a
 * request whose prompt and `max_tokens` exceed it), so a 2,000-token summary asked of it was
 * refused however short its transcript, and a note stood in for the summary at every
 * compaction. A summariser whose window cannot hold even its own instructions, a little
 * conversation and a short summary is not asked at all: the compaction says why.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import type { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, chatHistory, pagedHistory } from '../../support/compaction-kit.js';
import { estimateUsage, type FakeOpenAIServer, type RecordedRequest } from '../../support/fake-openai-server.js';
import { summariserFixturePerTest } from '../../support/summariser-fixture.js';

const SMALL_WINDOW = 1_024;

/** Some 950 tokens of instructions: no transcript and summary fit beside them in 1,024. */
const HOPELESS_PROMPT = `You summarise a conversation. ${'Keep every name, path and number. '.repeat(110)}`;

/** The prompt's tokens and the answer's room together, as vLLM counts a request against its window. */
function requested(r: RecordedRequest): number {
  return estimateUsage(r.body, {}).prompt_tokens + Number(r.body.max_tokens ?? 0);
}

const startFixture = summariserFixturePerTest();

/**
 * A run on a 16K model whose `compaction` agent (prompt `systemPrompt`) writes on a 1K one, of
 * a session of `history`: its events, the small server (its chat requests) and the store.
 */
async function compactWithSmallSummariser(systemPrompt: string, history = chatHistory(18)): Promise<{ events: AgentEvent[]; small: FakeOpenAIServer; sessions: MemorySessionStore }> {
  // vLLM's refusal: the prompt and max_tokens together may not exceed the window.
  const { small, engine, sessions } = await startFixture({
    systemPrompt,
    summariser: {
      contextSize: SMALL_WINDOW,
      handler: (r) => {
        const total = requested(r);
        if (total <= SMALL_WINDOW) return { text: 'SMALL SUMMARY' };
        return { status: 400, errorMessage: `This model's maximum context length is ${SMALL_WINDOW} tokens. However, you requested ${total} tokens. Please reduce the length of the messages or completion.` };
      },
    },
  });
  sessions.append('s', history);
  const events: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 's' }));
  return { events, small, sessions };
}

describe('a summariser of a 1,024-token window', () => {
  it('is asked for a summary whose prompt and max_tokens fit its window, and writes it', async () => {
    const { events, small, sessions } = await compactWithSmallSummariser('You summarise a conversation.');
    expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(compaction!.summaryError).toBeUndefined();
    const asked = small.requests.filter((r) => r.body.messages !== undefined);
    expect(asked.map((r) => r.status)).toEqual([200]);
    expect(requested(asked[0]!)).toBeLessThanOrEqual(SMALL_WINDOW);
    expect(Number(asked[0]!.body.max_tokens)).toBeGreaterThanOrEqual(64);
    const stored = sessions.load('s');
    expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining('SMALL SUMMARY') });
    expect(alternationProblems(stored)).toEqual([]);
  });

  it('is not sent a request when its instructions leave no room for a summary, and the compaction says why', async () => {
    const { events, small, sessions } = await compactWithSmallSummariser(HOPELESS_PROMPT);
    expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction!.summaryError).toMatch(/model "small-model" cannot write a summary: its context window \(about \d+ tokens\) holds its instructions .* no summary request was sent/);
    expect(small.requests.filter((r) => r.body.messages !== undefined)).toEqual([]);
    // Long chat, nothing to prune: kept, the old turns would overflow the window, so a note stands in for them.
    expect(compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(sessions.load('s')[0]).toMatchObject({ role: 'user', content: expect.stringContaining('No summary could be written: model "small-model" cannot write a summary') });
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });

  it('that cannot write one puts a note in place of the old turns when, their tool outputs pruned, they are still over the target', async () => {
    // Five turns of 3 KB pages, then nine of long chat (some 11,000 tokens): over the room the
    // 16K window leaves beside the tools and the answer; the pages pruned, some 7,300, which
    // fit the room but not the compaction's 60% target. Kept, they would cross the room again
    // within a turn or two and the summary be tried (and fail) again: a note stands in for them.
    const history = [...pagedHistory(5), ...chatHistory(9)];
    const { events, small, sessions } = await compactWithSmallSummariser(HOPELESS_PROMPT, history);
    expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction).toMatchObject({ reason: 'context-limit', prunedToolResults: 5 });
    expect(compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(compaction!.summaryError).toMatch(/cannot write a summary: .* no summary request was sent/);
    expect(compaction!.summaryError).not.toContain('the earlier messages were kept');
    expect(small.requests.filter((r) => r.body.messages !== undefined)).toEqual([]);
    const stored = sessions.load('s');
    expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining('No summary could be written') });
    // The newest turns stay word for word after the note.
    expect(stored.slice(-4, -2)).toEqual(chatHistory(9).slice(-2));
    expect(alternationProblems(stored)).toEqual([]);
  });

  it('that cannot write one, asked to compact a session already under its target (engine.compact), leaves it as it was and says why', async () => {
    const { small, engine, sessions } = await startFixture({ systemPrompt: HOPELESS_PROMPT, summariser: { contextSize: SMALL_WINDOW, handler: () => ({ text: 'SMALL SUMMARY' }) } });
    sessions.append('s', chatHistory(6));
    const event = await engine.compact('s');
    expect(event).toMatchObject({ reason: 'manual', prunedToolResults: 0, summarisedMessages: 0, archived: false });
    expect(event.summaryError).toMatch(/cannot write a summary: .*\(the earlier messages were kept: they fit the context window without a summary\)/);
    expect(small.requests.filter((r) => r.body.messages !== undefined)).toEqual([]);
    expect(sessions.load('s')).toEqual(chatHistory(6));
  });
});
