/**
 * The `compaction` agent may name a model of its own (`model:` in its definition), whose
 * window can be smaller than the run's model's. The transcript its summary request carries is
 * sized by the window of the model that writes the summary: sized by the run's 16K window,
 * it was more than a 4K summariser takes, which refused it at every compaction (a plain note
 * stood in for the summary). Two fake llama servers, each saying its window in `/props`; or
 * the summariser's saying none, its window learned from its first refusal.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, chatHistory } from '../../support/compaction-kit.js';
import { contextRefusal } from '../../support/fake-openai/context-size.js';
import { summariserFixturePerTest } from '../../support/summariser-fixture.js';

const startFixture = summariserFixturePerTest();

describe('a compaction agent with a model of a smaller window than the run model', () => {
  it("sends it a transcript that fits its window, and its summary replaces the oldest turns", async () => {
    const { run, small, engine, sessions } = await startFixture({ summariser: { contextSize: 4_096, handler: () => ({ text: 'SMALL SUMMARY' }) } });
    sessions.append('s', chatHistory(18));

    const events: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 's' }));
    expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction).toMatchObject({ reason: 'context-limit', contextWindow: 16_384, prunedToolResults: 0 });
    expect(compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(compaction!.summaryError).toBeUndefined();
    // The summariser was asked once, within its window; the run's model wrote no summary.
    const summaries = small.requests.filter((r) => r.body.messages !== undefined);
    expect(summaries.map((r) => r.status)).toEqual([200]);
    expect(run.requests.filter((r) => r.body.messages?.[0]?.content === 'You summarise a conversation.')).toEqual([]);
    const stored = sessions.load('s');
    expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining('SMALL SUMMARY') });
    expect(alternationProblems(stored)).toEqual([]);
  });

  it('learns its window from a refusal that names it, and the next summary fits', async () => {
    // No `/props` (an OpenAI-like server): only its refusals say its 4K window.
    const { small, engine, sessions } = await startFixture({
      summariser: {
        handler: (r) => {
          const refusal = contextRefusal(r.body, 4_096) as { error: { message: string } } | undefined;
          return refusal ? { status: 400, errorMessage: refusal.error.message } : { text: 'SMALL SUMMARY' };
        },
      },
    });
    sessions.append('a', chatHistory(18));
    sessions.append('b', chatHistory(18));
    const first: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 'a' }));
    expect(first.find((e) => e.type === 'Compaction')).toMatchObject({ summaryError: expect.stringMatching(/exceeds the available context size \(4096 tokens\)/) });
    const second: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 'b' }));
    expect(second.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    expect(second.find((e): e is CompactionEvent => e.type === 'Compaction')?.summaryError).toBeUndefined();
    expect(small.requests.filter((r) => r.body.messages !== undefined).map((r) => r.status)).toEqual([400, 200]);
    expect(sessions.load('b')[0]).toMatchObject({ role: 'user', content: expect.stringContaining('SMALL SUMMARY') });
  });
});
