/**
 * With `maxConcurrentRequests`, a request reserves its share of the token budget before it
 * waits for a slot, on an estimate (what the pool's last request cost). Requests queued behind
 * the slot must look at the pool again when they get it: else every child of a multitask is
 * let through on a small estimate and sent one after another long after the pool is spent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());
const cost = (n: number) => ({ prompt_tokens: n, completion_tokens: 0, total_tokens: n });

describe('a request queued behind maxConcurrentRequests', () => {
  it('is not sent once the requests before it spent the pool: one request at a time ends at most one request past the budget', async () => {
    f = await startDelegationFixture({
      // Main's estimate (10) lets all eight children reserve; each of their requests costs 5,000.
      main: (t) => ({ ...(t.step === 1 ? multitaskReply(Array.from({ length: 8 }, (_, i) => [i + 1, 'worker', `p${i}`, `d${i}`] as const)) : { text: 'done' }), usage: cost(10) }),
      worker: () => ({ text: 'x', usage: cost(5_000) }),
    });
    const engine = f.engine({ tokenBudget: 12_000, maxConcurrentRequests: 1 }, [testAgent('worker')]);
    const events = await collect(engine.stream('go'));
    expect(f.server.peakInFlight).toBe(1);
    // 10 + 5,000 + 5,000 leaves 1,990: the third child goes, and spends the pool; the other five are not sent.
    expect(f.requestsOf('worker')).toHaveLength(3);
    const runEnd = own(events, 'RunEnd')[0]!;
    expect(runEnd.metrics.totalTokens).toBe(15_010);
    expect(runEnd).toMatchObject({ abnormal: true, error: 'the token budget is spent: 15010 of 12000 tokens used by this run and its tasks, so no further model request was made' });
    // The children withdrawn at their slot (or refused as they started) end as a refused request does.
    const refused = events.filter((e) => e.type === 'TaskWrap' && e.event.type === 'RunEnd' && e.event.error?.includes('so no further model request was made'));
    expect(refused).toHaveLength(5);
  });
});
