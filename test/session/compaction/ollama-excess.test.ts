/**
 * Ollama (Ollama Cloud among them) refuses a prompt too long saying only by how much it is over:
 * "prompt too long; exceeded max context length by K tokens". A session of some 100,000 tokens
 * whose first turn was served (its usage taught the ratio) meets a window 70,000 tokens below
 * its next prompt (the server now runs a smaller context). Before, the window learned was a
 * tenth less than the refused prompt, the resend (half the session) was still far over the
 * window, was refused again and the turn failed. The excess is read: the window learned is the
 * refused prompt less it, and the resend fits. Over excesses from a tenth of the prompt to most
 * of it (a property), the one resend is never larger than the refused prompt less the excess.
 * And past a large window (262,144 tokens, a prompt some 74,000 over, a fifth of it, as a user
 * saw with kimi-k2.6:cloud), the refused turn's resend (half its session) fitted before too, but
 * the window learned, a tenth less than the prompt, was still over the real one: a later turn
 * grown between the two was sent as it was and refused again.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import type { Tool } from '../../../src/tools/tool.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest, pagedHistory, SUMMARY } from '../../support/compaction-kit.js';
import { estimateUsage, FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { TEXT_PARAMETERS } from '../../support/test-tools.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const countOf = (request: RecordedRequest): number => estimateUsage(request.body, {}).prompt_tokens;

/** What a session's second turn met, on a server whose window is set at that turn to `excessOf(prompt)` below its prompt. */
interface SecondTurn {
  readonly events: readonly AgentEvent[];
  /** The server's count of the refused prompt, and the excess its refusal said. */
  readonly refused: number;
  readonly excess: number;
  /** The server's counts of the requests it refused, and of those it took, after the first turn. */
  readonly refusals: readonly number[];
  readonly taken: readonly number[];
  readonly sessions: MemorySessionStore;
}

/**
 * A stored session of some 100,000 tokens; its first turn is served with a usage (the server's
 * count: the ratio is learned), then the server's window becomes `excessOf(prompt)` less than
 * the second turn's prompt, and every request over it is refused in Ollama's words.
 */
async function secondTurn(excessOf: (prompt: number) => number): Promise<SecondTurn> {
  let window: number | undefined;
  let chats = 0;
  let refused = 0;
  let excess = 0;
  const refusals: number[] = [];
  const taken: number[] = [];
  const server = await FakeOpenAIServer.start({
    handler: (request): FakeReply => {
      const n = countOf(request);
      if (!isSummaryRequest(request) && ++chats === 2) {
        excess = excessOf(n);
        refused = n;
        window = n - excess;
      }
      if (window !== undefined && n > window) {
        refusals.push(n);
        return { status: 400, errorMessage: `prompt too long; exceeded max context length by ${n - window} tokens` };
      }
      if (window !== undefined) taken.push(n);
      return { text: isSummaryRequest(request) ? SUMMARY : 'ok' };
    },
  });
  servers.push(server);
  const sessions = new MemorySessionStore();
  sessions.append('s', pagedHistory(120));
  const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
  const first = await collect(agent.stream('Tell me more', { sessionId: 's' }));
  expect(first.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
  const events = await collect(agent.stream('And now?', { sessionId: 's' }));
  return { events, refused, excess, refusals, taken, sessions };
}

const compactionsOf = (events: readonly AgentEvent[]): CompactionEvent[] => events.filter((e): e is CompactionEvent => e.type === 'Compaction');

describe('Ollama\'s refusal saying only the excess ("exceeded max context length by K tokens")', () => {
  it('a prompt 70,000 tokens over: compacted once, below the prompt less the excess, and the turn succeeds', { timeout: 60_000 }, async () => {
    const turn = await secondTurn(() => 70_000);
    expect(turn.refused).toBeGreaterThan(90_000);
    expect(turn.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
    expect(turn.refusals).toEqual([turn.refused]);
    const compactions = compactionsOf(turn.events);
    expect(compactions.map((c) => c.reason)).toEqual(['context-exceeded']);
    // The window learned is the refused prompt less the excess, not a tenth less. The engine's size
    // of the refused prompt is its estimate scaled by the ratio the first turn's usage taught: a
    // few tokens off the server's count, either way (here 14 below).
    expect(compactions[0]!.contextWindow).toBeLessThanOrEqual(turn.refused - turn.excess + 100);
    expect(turn.taken.at(-1)).toBeLessThanOrEqual(turn.refused - turn.excess);
    expect(alternationProblems(turn.sessions.load('s'))).toEqual([]);
  });

  it('over excesses from a tenth of the prompt to most of it, the resend is never over the prompt less the excess (property, seeded)', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 10, max: 85 }), async (percent) => {
        const turn = await secondTurn((n) => Math.floor((n * percent) / 100));
        expect(turn.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
        expect(turn.refusals).toEqual([turn.refused]);
        expect(turn.taken.length).toBeGreaterThan(0);
        for (const taken of turn.taken) expect(taken).toBeLessThanOrEqual(turn.refused - turn.excess);
        await Promise.all(servers.splice(0).map((s) => s.close()));
      }),
      { numRuns: 12, seed: 61 },
    );
  });
});

describe('Ollama\'s excess past a large window (262,144 tokens)', () => {
  const WINDOW = 262_144;
  /** `read`: about 100,000 tokens for "everything", 40,000 for anything else. */
  const read: Tool<{ text: string }> = {
    name: 'read', description: 'Reads a file.', parameters: TEXT_PARAMETERS,
    execute: (args) => `${args.text}: ${'the quick brown fox jumps over the lazy dog. '.repeat(args.text === 'everything' ? 8_900 : 3_560)}`,
  };

  it('a prompt some 74,000 over: refused once, and the later turns are compacted before they are sent', { timeout: 120_000 }, async () => {
    const excesses: number[] = [];
    const server = await FakeOpenAIServer.start({
      handler: (request): FakeReply => {
        const n = countOf(request);
        if (n > WINDOW) {
          excesses.push(n - WINDOW);
          return { status: 400, errorMessage: `prompt too long; exceeded max context length by ${n - WINDOW} tokens (ref: 632ffad5)` };
        }
        if (isSummaryRequest(request)) return { text: SUMMARY };
        const last = request.body.messages?.at(-1);
        return last?.role === 'user' ? { toolCalls: [{ name: 'read', arguments: { text: last.content.split('\n').at(-1)! } }] } : { text: 'ok' };
      },
    });
    servers.push(server);
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory(280));
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [read] });
    const ends: AgentEvent[] = [];
    for (const prompt of ['everything', 'part 1', 'part 2', 'part 3', 'part 4', 'part 5']) {
      ends.push((await collect(agent.stream(prompt, { sessionId: 's' }))).at(-1)!);
    }
    expect(ends.map((e) => e.type === 'RunEnd' && !e.abnormal)).toEqual(ends.map(() => true));
    // The one refusal, of the "everything" turn, a fifth of its prompt over (the report's share); before, a later turn was refused too.
    expect(excesses).toHaveLength(1);
    expect(excesses[0]).toBeGreaterThan(50_000);
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});
