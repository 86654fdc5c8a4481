/**
 * When no summary can be written, the old turns are kept only where that cannot bring the
 * request straight back (docs/sessions.md, "When no summary can be written"): never after a
 * server's refusal (its window has just shown our estimate wrong: a note replaces them), and
 * otherwise only when the pruned session is under the compaction's 60% target (not the room),
 * so a failing summariser is not asked again at the next turn.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, chatHistory, isSummaryRequest, pagedHistory, pageTool, pageTurns } from '../../support/compaction-kit.js';
import { estimateUsage, FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { summariserFixturePerTest } from '../../support/summariser-fixture.js';
import { homeBeside } from '../../support/tool-context.js';

/** Some 950 tokens of instructions: a 1,024-token summariser cannot write a summary beside them. */
const HOPELESS_PROMPT = `You summarise a conversation. ${'Keep every name, path and number. '.repeat(110)}`;
/** The window the run's server really takes. */
const REAL_WINDOW = 16_384;
/** How many of its tokens the server counts for one of our estimate's (code, CJK). */
const UNDERCOUNT = 2.5;

const startFixture = summariserFixturePerTest();

describe('a summary that cannot be written', () => {
  it('after a refusal, is replaced by a note (the turns kept would be refused again) and the run answers', async () => {
    const sizes: number[] = [];
    const { engine, sessions, run } = await startFixture({
      systemPrompt: HOPELESS_PROMPT,
      summariser: { contextSize: 1_024, handler: () => ({ text: 'S' }) },
      run: {
        // No `/props`: the window is known only from the refusal, counted in the server's tokens.
        handler: (r) => {
          const real = Math.floor(estimateUsage(r.body, {}).prompt_tokens * UNDERCOUNT);
          sizes.push(real);
          if (real > REAL_WINDOW) return { status: 400, errorMessage: `request (${real} tokens) exceeds the available context size (${REAL_WINDOW} tokens), try increasing it` };
          return { text: 'the answer', usage: { prompt_tokens: real, completion_tokens: 3, total_tokens: real + 3 } };
        },
      },
    });
    sessions.append('s', [...pagedHistory(4), ...chatHistory(6)]);
    const events: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 's' }));
    expect(events.at(-1) as RunEndEvent).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction).toMatchObject({ reason: 'context-exceeded', summaryError: expect.stringMatching(/cannot write a summary/) });
    expect(compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(compaction!.summaryError).not.toContain('the earlier messages were kept');
    // Refused once, then sent compacted and answered: not resent nearly whole to be refused again.
    expect(run.requests.map((r) => r.status)).toEqual([400, 200]);
    expect(sizes[1]).toBeLessThanOrEqual(REAL_WINDOW);
    const stored = sessions.load('s');
    expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining('No summary could be written') });
    expect(alternationProblems(stored)).toEqual([]);
  });

  it('asked on demand (engine.compact) of a session within the window but over the target, is replaced by a note', async () => {
    const { engine, sessions, small } = await startFixture({ systemPrompt: HOPELESS_PROMPT, summariser: { contextSize: 1_024, handler: () => ({ text: 'S' }) } });
    // Ten turns of long chat (some 8,000 tokens): within the room a 16K window leaves, over its 60% target.
    sessions.append('s', chatHistory(10));
    const event = await engine.compact('s');
    expect(event).toMatchObject({ reason: 'manual', archived: true, summaryError: expect.stringMatching(/cannot write a summary/) });
    expect(event.summarisedMessages).toBeGreaterThan(0);
    expect(event.tokensAfter).toBeLessThan(event.tokensBefore);
    expect(small.requests.filter((r) => r.body.messages !== undefined)).toEqual([]);
    const stored = sessions.load('s');
    expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining('No summary could be written') });
    // The note opens the last turn's prompt (roles keep alternating); its answer stays word for word.
    expect(stored).toHaveLength(2);
    expect(stored[0]!.content).toMatch(/\n\nTell me about topic 10$/);
    expect(stored[1]).toEqual(chatHistory(10).at(-1));
    expect(alternationProblems(stored)).toEqual([]);
  });

  it('by a summariser that always fails, over 30 tool-using turns under 8K, is asked for only after real growth', async () => {
    const server = await FakeOpenAIServer.start({ contextSize: 8_192, handler: (r) => (isSummaryRequest(r) ? { status: 503, errorMessage: 'summaries are broken today' } : pageTurns(r)) });
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'failed-summary-')));
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: dir, homeDir: homeBeside(dir), tools: [pageTool], sessions: new MemorySessionStore() });
    try {
      const compactions: CompactionEvent[] = [];
      for (let turn = 1; turn <= 30; turn++) {
        const events: AgentEvent[] = await collect(engine.stream(`Tell me about topic ${turn}`, { sessionId: 'long' }));
        expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: `answer ${turn}` });
        compactions.push(...events.filter((e): e is CompactionEvent => e.type === 'Compaction'));
      }
      // Turns kept just under the room would cross it again within a turn or two (18
      // compactions, 9 failed summary requests); a note frees the room for many turns.
      expect(compactions.length).toBeLessThanOrEqual(14);
      expect(server.requests.filter(isSummaryRequest).length).toBeLessThanOrEqual(2);
      expect(compactions.every((c) => !(c.summaryError ?? '').includes('the earlier messages were kept'))).toBe(true);
    } finally {
      await engine.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
