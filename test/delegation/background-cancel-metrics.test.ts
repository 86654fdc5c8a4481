import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { lifecycleTaskReply } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const U = (n: number) => ({ prompt_tokens: n, completion_tokens: 0, total_tokens: n });

/** Main starts one background alpha, whose first step spends 1000 tokens and whose second hangs. */
async function spendingBackgroundTask() {
  f = await startDelegationFixture({
    main: (t) => (t.step === 1 ? lifecycleTaskReply('alpha', 'work', { background: true }, 'bg job') : { text: 'started' }),
    alpha: (t) => (t.step === 1 ? { toolCalls: [{ name: 'list', arguments: {} }], usage: U(1000) } : { hang: true }),
  });
  const engine = f.engine({}, [testAgent('alpha')]);
  await engine.call('go', { sessionId: 's1' });
  while (f.requestsOf('alpha').length < 2) await f.server.waitForRequests(f.server.requests.length + 1, 5000);
  const [task] = engine.tasks.list();
  return { engine, taskId: task!.taskId };
}

describe('a background task stopped before it finished keeps its usage with the task', () => {
  it('cancelled by id: TaskInfo.metrics counts what its child spent', async () => {
    const { engine, taskId } = await spendingBackgroundTask();
    expect(engine.cancelTask(taskId)).toBe(true);
    expect(engine.tasks.get(taskId)).toMatchObject({ state: 'cancelled', metrics: { totalTokens: 1000 } });
  });

  it('stopped by engine.close(): TaskInfo.metrics counts what its child spent', async () => {
    const { engine, taskId } = await spendingBackgroundTask();
    await engine.close();
    expect(engine.tasks.get(taskId)).toMatchObject({ state: 'cancelled', metrics: { totalTokens: 1000 } });
  });
});
