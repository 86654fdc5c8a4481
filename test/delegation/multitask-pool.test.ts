import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, type TaskTuple } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const FIVE: TaskTuple[] = [1, 2, 3, 4, 5].map((i) => [i, 'alpha', `job ${i}`, `task ${i}`] as const);

function successes(text: string): string[] {
  return [...text.matchAll(/<index>(\d)<\/index>.*?<result_status>success<\/result_status><result_content><!\[CDATA\[(.*?)\]\]>/g)].map(
    (m) => `${m[1]}=${m[2]}`,
  );
}

describe('the multitask pool', () => {
  it('runs at most multitaskMaxTasks children at once and queues the rest', async () => {
    f = await startDelegationFixture({ main: steps(multitaskReply(FIVE)), alpha: (t) => ({ text: t.prompt, delayMs: 60 }) });
    const events = await collect(f.engine({ multitaskMaxTasks: 2 }, [testAgent('alpha')]).stream('go'));
    expect(f.server.peakInFlight).toBe(2);
    expect(f.requestsOf('alpha')).toHaveLength(5);
    expect(successes(own(events, 'ToolCallEnd')[0]!.text)).toEqual(['1=job 1', '2=job 2', '3=job 3', '4=job 4', '5=job 5']);
  });

  it('with multitaskMaxTasks 0 runs every task at once', async () => {
    f = await startDelegationFixture({
      main: steps(multitaskReply(FIVE)),
      // Each child answers only once all five are in flight together: a queue would time out.
      alpha: async (t) => {
        await f.server.waitForRequests(6, 3_000);
        return { text: t.prompt };
      },
    });
    const events = await collect(f.engine({ multitaskMaxTasks: 0 }, [testAgent('alpha')]).stream('go'));
    expect(f.server.peakInFlight).toBe(5);
    expect(successes(own(events, 'ToolCallEnd')[0]!.text)).toHaveLength(5);
  });
});
