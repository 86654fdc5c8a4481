/**
 * The overspends measured in issue 22 (item 12), each replayed through the real `openai`
 * client against the fake server, every request costing 100 tokens. The guarantee: a tree
 * never spends more than its budget plus one request per agent in flight, so what the server
 * answered is at most the budget plus 100 times the most requests it had in flight at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { busy, costing, STEP } from '../backend/support/costing.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, taskArgs, type TaskTuple } from '../support/delegation-script.js';
import { settled } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** What the server charged: every request it answered to the end. */
function spent(): number {
  return f.server.requests.filter((r) => r.completed).length * STEP;
}

/** The guarantee, checked against what the server saw. */
function expectWithinBudget(budget: number): void {
  expect(f.server.peakInFlight).toBeGreaterThan(0);
  expect(spent()).toBeLessThanOrEqual(budget + STEP * f.server.peakInFlight);
}

const tasks = (n: number): TaskTuple[] => Array.from({ length: n }, (_, i) => [i + 1, 'worker', `job ${i + 1}`, `t${i + 1}`] as const);

describe('a token budget is never overspent by a tree (issue 22.12)', () => {
  it('a multitask of 5 under a budget of 200 (measured: 1,200 spent)', async () => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? costing(multitaskReply(tasks(5))) : costing({ text: 'summary' })),
      worker: (t) => (t.step === 1 ? busy : costing({ text: `did ${t.prompt}` })),
    });
    const events = await collect(f.engine({ tokenBudget: 200 }, [testAgent('worker')]).stream('go'));
    expectWithinBudget(200);
    // The parent's 100, then one child's first request takes the last 100 (made without tools);
    // the others and the parent's next request are refused: exactly the budget.
    expect(spent()).toBe(200);
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent: 200 of 200 tokens used') });
    const childEnds = wraps(events).filter((w) => w.event.type === 'RunEnd');
    expect(childEnds).toHaveLength(5);
    expect(f.requestsOf('worker').every((r) => r.body.tools === undefined)).toBe(true);
  });

  it('200 tasks started with 1 token left (measured: 700 spent)', async () => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? costing(multitaskReply(tasks(200))) : costing({ text: 'summary' })),
      worker: (t) => costing({ text: `did ${t.prompt}` }),
    });
    const events = await collect(f.engine({ tokenBudget: 101 }, [testAgent('worker')]).stream('go'));
    expectWithinBudget(101);
    // One child's request is let through on the 1 token left; none of the other 199.
    expect(f.requestsOf('worker')).toHaveLength(1);
    expect(spent()).toBe(200);
    expect(own(events, 'RunEnd')[0]!.abnormal).toBe(true);
  });

  it('a background child of a run with a budget of 200 draws from it (measured: 2,000 spent)', async () => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? costing({ toolCalls: [{ name: 'task', arguments: { ...taskArgs('worker', 'dig', 'bg'), background: true } }] }) : costing({ text: 'started it' })),
      // It would take 20 steps, 2,000 tokens, if its parent's budget did not hold it.
      worker: (t) => (t.step < 20 ? busy : costing({ text: 'dug' })),
    });
    const engine = f.engine({ tokenBudget: 200 }, [testAgent('worker')]);
    await engine.call('go', { sessionId: 's' });
    const [task] = engine.tasks.list();
    const info = await settled(engine.tasks, task!.taskId);
    expectWithinBudget(200);
    expect(spent()).toBeLessThanOrEqual(300);
    expect(info).toMatchObject({ state: 'failed', result: expect.stringContaining('the token budget is spent') });
  });
});
