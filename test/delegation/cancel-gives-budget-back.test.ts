/**
 * A request holds its reservation of the tree's token budget until it settles. A child
 * cancelled by id in the middle of its request must give that reservation back: otherwise
 * the tokens stay "held by requests in flight" for ever, and the parent (whose pool it is)
 * is refused a request the budget still has room for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeReply } from '../support/fake-openai-server.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply } from '../support/delegation-script.js';

const STEP = 100;
const usage = { prompt_tokens: 0, completion_tokens: STEP, total_tokens: STEP };
const costing = (reply: FakeReply): FakeReply => ({ ...reply, usage });

let f: DelegationFixture;
afterEach(() => f.close());

describe('a child cancelled mid-request gives its budget reservation back', () => {
  it('the parent, whose pool it was, may still make the request the budget has room for', async () => {
    const held = createGate();
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? costing(multitaskReply([[1, 'worker', 'slow', 'slow one'], [2, 'worker', 'fast', 'fast one']])) : costing({ text: 'summary' })),
      // The slow child's request is held until the test ends; the fast one answers at once.
      worker: async (t) => {
        if (t.prompt === 'slow') await held.promise;
        return costing({ text: `did ${t.prompt}` });
      },
    });
    // 300: the parent's first request (100), then each child reserves 100; the second takes
    // what is left (its request is made without tools) and spends it.
    const engine = f.engine({ tokenBudget: 3 * STEP }, [testAgent('worker')]);
    const run = collect(engine.stream('go'));
    const task = (description: string) => engine.tasks.list().find((t) => t.description === description);
    // The fast one took the rest (its run ends on the spent budget); the slow one's request is at the server.
    while (!(task('fast one')?.state === 'failed' && f.requestsOf('worker').some((r) => r.body.messages!.some((m) => m.content === 'slow')))) {
      await f.server.waitForRequests(f.server.requests.length + 1, 200).catch(() => undefined);
    }
    expect(engine.cancelTask(task('slow one')!.taskId)).toBe(true);
    const events = await run;
    held.open();
    // 100 was left once the slow child's reservation came back: the parent's second request
    // was made (its last, without tools), not refused as held by a request in flight.
    expect(f.requestsOf('main')).toHaveLength(2);
    expect(f.requestsOf('main')[1]!.body.tools).toBeUndefined();
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent: 300 of 300 tokens used by this run and its tasks, so its last step was made without tools') });
  });
});
