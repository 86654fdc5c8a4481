/**
 * A request's `ReasonEnd` carries the usage the server reported, and it is emitted before the
 * answer reaches the run that settles the request's budget reservation. A consumer that
 * cancels a task right at that event (synchronously, in its subscriber) must not make the
 * request free: the server billed it, so the pool and the metrics count it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { testAgent } from '../support/agent-turns.js';
import { own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { taskReply } from '../support/delegation-script.js';

const STEP = 100;
const usage = { prompt_tokens: 0, completion_tokens: STEP, total_tokens: STEP };
const costing = (reply: FakeReply): FakeReply => ({ ...reply, usage });

let f: DelegationFixture;
afterEach(() => f.close());

describe('a task cancelled at its own ReasonEnd', () => {
  it('is charged the usage that ReasonEnd reported, in the pool and in the metrics', async () => {
    f = await startDelegationFixture({
      // Two tasks one after the other; the first is cancelled as its answer's ReasonEnd arrives.
      main: (t) => costing(t.step === 1 ? taskReply('worker', 'w1', 'first') : t.step === 2 ? taskReply('worker', 'w2', 'second') : { text: 'done' }),
      worker: () => costing({ text: 'did it' }),
    });
    const engine = f.engine({ tokenBudget: 100_000 }, [testAgent('worker')]);
    const events: AgentEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      engine.stream('go').subscribe({
        next: (e) => {
          events.push(e);
          if (e.type === 'TaskWrap' && e.event.type === 'ReasonEnd' && e.taskDescription === 'first') engine.cancelTask(e.taskId);
        },
        error: reject,
        complete: resolve,
      });
    });
    // The cancel did land before the first task's answer was settled: it has no Budget event of its own.
    const taskBudgets = events.filter((e) => e.type === 'TaskWrap' && e.event.type === 'Budget').map((e) => (e.type === 'TaskWrap' ? e.taskDescription : ''));
    expect(taskBudgets).toEqual(['second']);
    // Five requests of 100 answered with usage: main's three and one per task.
    expect(f.server.requests).toHaveLength(5);
    expect(own(events, 'Budget').at(-1)).toMatchObject({ used: 5 * STEP });
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: false, metrics: { totalTokens: 5 * STEP } });
  });
});
