import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, type TaskTuple } from '../support/delegation-script.js';

// A consumer that unsubscribes on a child's first event does so while the pool is still
// subscribing that child: the child must stop with the parent, its model request aborted.

let f: DelegationFixture;
afterEach(() => f.close());

const TWO: TaskTuple[] = [1, 2].map((i) => [i, 'alpha', `job ${i}`, `task ${i}`] as const);

describe('a parent unsubscribed on its child task\'s RunStart', () => {
  it('stops the child: no model request of it stays open at the server', async () => {
    f = await startDelegationFixture({ main: steps(multitaskReply(TWO)), alpha: () => ({ hang: true }) });
    const engine = await f.engine({ multitaskMaxTasks: 2 }, [testAgent('alpha')]);
    let cut!: () => void;
    const wasCut = new Promise<void>((resolve) => (cut = resolve));
    const subscription = engine.stream('go').subscribe((event) => {
      if (event.type === 'TaskWrap' && event.event.type === 'RunStart') {
        subscription.unsubscribe();
        cut();
      }
    });
    await wasCut;
    // The pool subscribes children from a promise job: one turn of the event loop and it is done.
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The started task is stopped with its parent (before: it stayed running, unseen); the
    // second, not yet started when the parent left, never starts.
    expect(engine.tasks.list().map((task) => task.state)).toEqual(['cancelled']);
    for (const request of f.requestsOf('alpha')) expect((await f.server.waitForClosed(request.index)).aborted).toBe(true);
    expect(f.server.inFlight).toBe(0);
  });
});
