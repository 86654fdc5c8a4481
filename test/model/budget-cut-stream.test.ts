/**
 * A request that fails once its reply has begun (the server drops the stream, or the reply is
 * abandoned at its size limit) is charged an estimate: its prompt (`ContextSize.tokenCount`)
 * and what it streamed, four characters a token. Before, it was charged nothing, so a parent
 * whose children's streams were always cut delegated without end on a budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextSizeEvent } from '../../src/events/agent-event.js';
import { CHARS_PER_TOKEN } from '../../src/model/estimate-tokens.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { taskReply } from '../support/delegation-script.js';

const ONE = { prompt_tokens: 0, completion_tokens: 1, total_tokens: 1 };
/** Two chunks of 16 characters, then the connection is reset: the worker's reply is cut. */
const CUT: FakeReply = { text: 'x'.repeat(64), chunkSize: 16, resetAfterChunks: 2 };
const CUT_CHARS = 32;

let f: DelegationFixture;
afterEach(() => f.close());

/** The prompt estimates of the worker's requests, in order. */
function workerPrompts(events: Parameters<typeof wraps>[0]): number[] {
  return wraps(events)
    .map((w) => w.event)
    .filter((e): e is ContextSizeEvent => e.type === 'ContextSize')
    .map((e) => e.tokenCount);
}

describe('a request that fails mid-stream is charged an estimate of what it cost', () => {
  it('a child whose stream is cut is charged its prompt and the characters it streamed', async () => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? { ...taskReply('worker', 'dig'), usage: ONE } : { text: 'gave up', usage: ONE }),
      worker: () => CUT,
    });
    const events = await collect(f.engine({ tokenBudget: 100_000 }, [testAgent('worker')]).stream('go'));
    const [prompt] = workerPrompts(events);
    expect(prompt).toBeGreaterThan(0);
    const budgets = own(events, 'Budget');
    // Step 2's count: step 1 (1 token), the cut child's estimate, step 2 (1 token).
    expect(budgets.at(-1)!.used).toBe(1 + prompt! + CUT_CHARS / CHARS_PER_TOKEN + 1);
  });

  it('a parent whose children are always cut ends on its budget instead of delegating on', async () => {
    f = await startDelegationFixture({
      // Each step delegates again, at 1 token a step: only the children's charges can end it.
      main: () => ({ ...taskReply('worker', 'dig'), usage: ONE }),
      worker: () => CUT,
    });
    const budget = 2_000;
    const engine = f.engine({ tokenBudget: budget, maxSteps: 200 }, [testAgent('worker')]);
    const events = await collect(engine.stream('go'));
    const prompts = workerPrompts(events);
    const childCharge = prompts[0]! + CUT_CHARS / CHARS_PER_TOKEN;
    // Bounded by the budget: one child past it at most.
    expect(f.requestsOf('worker').length).toBeLessThanOrEqual(Math.ceil(budget / childCharge) + 1);
    const end = own(events, 'RunEnd')[0]!;
    expect(end).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    const parentSteps = f.requestsOf('main').length;
    const charged = parentSteps + prompts.reduce((sum, p) => sum + p + CUT_CHARS / CHARS_PER_TOKEN, 0);
    expect(end.error).toContain(`${charged} of ${budget} tokens used`);
  });

  it('so does one under call(), whose steps read no deltas: the reader marks the failure of a reply that began', async () => {
    f = await startDelegationFixture({
      main: () => ({ ...taskReply('worker', 'dig'), usage: ONE }),
      worker: () => CUT,
    });
    const result = await f.engine({ tokenBudget: 2_000, maxSteps: 200 }, [testAgent('worker')]).call('go');
    expect(result).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    // Each cut child is charged hundreds of tokens (its prompt offers tools): a few rounds spend 2,000.
    expect(f.requestsOf('worker').length).toBeLessThan(20);
  });

  it('a reply abandoned at its size limit is charged what it streamed, the chunk past the limit included', async () => {
    const chunk = 64 * 1024;
    const limit = 1024 * 1024; // the least a reply with a maxTokens may stream (reply-limit.ts)
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? { ...taskReply('worker', 'dig'), usage: ONE } : { text: 'gave up', usage: ONE }),
      worker: () => ({ text: 'y'.repeat(limit + 2 * chunk), chunkSize: chunk }),
    });
    const worker = testAgent('worker', { settings: { maxTokens: 1 } });
    const events = await collect(f.engine({ tokenBudget: 10_000_000 }, [worker]).stream('go'));
    const childEnd = wraps(events).find((w) => w.event.type === 'RunEnd')!.event;
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('the reply was abandoned') });
    const [prompt] = workerPrompts(events);
    // The reader stopped at the chunk that passed the limit, before handing it on.
    const streamed = limit + chunk;
    expect(own(events, 'Budget').at(-1)!.used).toBe(1 + prompt! + streamed / CHARS_PER_TOKEN + 1);
  });

  it('a request refused with an error status before any reply is charged nothing', async () => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? { ...taskReply('worker', 'dig'), usage: ONE } : { text: 'gave up', usage: ONE }),
      worker: () => ({ status: 500, errorMessage: 'upstream failed' }),
    });
    const events = await collect(f.engine({ tokenBudget: 100_000 }, [testAgent('worker')]).stream('go'));
    expect(wraps(events).find((w) => w.event.type === 'RunEnd')!.event).toMatchObject({ abnormal: true, error: expect.stringContaining('HTTP 500') });
    expect(own(events, 'Budget').at(-1)!.used).toBe(2);
  });
});
