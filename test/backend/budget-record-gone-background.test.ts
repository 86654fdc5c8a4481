/**
 * A background task on a worker whose tree's budget is gone from Redis while its request is
 * in flight used to go on on a fresh pool: after a restart without persistence the tree spent
 * 1400 of its 1000. Now its child stops on the error naming the budget, and the task fails
 * with it. The budget is taken out as a `volatile-*` eviction takes it (a restart, which
 * takes everything, also fails the engine's read of the task's log: see budget-record-gone.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';
import { settled } from '../support/lifecycle-script.js';
import { costing } from './support/costing.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)("a token budget's record gone while a background task runs on a worker", () => {
  const scale = useScaleKits();

  it('the child stops on the error and its task fails with it, spending nothing more', async () => {
    const kit = await scale.kit();
    const { redis, keys } = (await kit.backend()).parts;
    let parentEnded = (): void => undefined;
    const parentRun = new Promise<void>((resolve) => (parentEnded = resolve));
    kit.fixture.route({
      main: (t) => costing(t.step === 1 ? { toolCalls: [{ name: 'task', arguments: { ...taskArgs('worker', 'dig', 'bg'), background: true } }] } : { text: 'started it' }),
      worker: async (t) => {
        if (t.step === 3) {
          await parentRun; // its run ended: only the child counts in the pool now
          const pool = await redis.keys(keys.budget('*'));
          expect(pool).toHaveLength(1); // the tree's one budget (the child has no limit of its own)
          await redis.del(...pool);
        }
        return costing(t.toolNames.length === 0 ? { text: 'child out of budget' } : { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] });
      },
    });
    await kit.worker();
    const engine = await kit.engine({ tokenBudget: 1000, maxSteps: 60 }, [testAgent('worker', { maxSteps: 60 })]);
    await engine.call('go', { sessionId: 's' });
    parentEnded();
    const [task] = engine.tasks.list();
    const info = await settled(engine.tasks, task!.taskId);
    expect(info).toMatchObject({ state: 'failed', result: expect.stringMatching(/the token budget's record \S+:budget:\S+ in Redis is gone \(/) });
    // The parent's two requests and the child's three, the last in flight as its budget went: nothing after.
    expect(kit.fixture.server.requests.filter((r) => turnOf(r).agent === 'worker')).toHaveLength(3);
    expect(kit.fixture.server.requests.filter((r) => r.completed)).toHaveLength(5);
    expect(await redis.keys(keys.budget('*'))).toEqual([]); // none made afresh
  });
});
