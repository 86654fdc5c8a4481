import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { own, record, wraps } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { settled } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

describe('engine.cancelTask on a task that delegates (maxDepth 2)', () => {
  it('stops the task and its own grandchildren; the siblings and the parent go on', async () => {
    const gate = createGate();
    f = await startDelegationFixture({
      main: steps(multitaskReply([1, 2, 3].map((i) => [i, 'alpha', `job ${i}`, `task ${i}`] as const))),
      alpha: async (turn) => {
        if (turn.prompt === 'job 2') return steps(multitaskReply([[1, 'beta', 'g1', 'inner one'], [2, 'beta', 'g2', 'inner two']]))(turn);
        await gate.promise;
        return { text: `done ${turn.prompt}` };
      },
      beta: () => ({ hang: true }),
    });
    const engine = f.engine({ maxDepth: 2, multitaskMaxTasks: 3 }, [testAgent('alpha'), testAgent('beta')]);
    const run = record(engine.stream('go'));
    await f.server.waitForRequests(6); // main, three alphas, two betas
    const second = engine.tasks.list().find((t) => t.description === 'task 2')!;
    const grandchildren = engine.tasks.list().filter((t) => t.agentName === 'beta');
    expect(grandchildren.map((t) => t.state)).toEqual(['running', 'running']);
    expect(grandchildren.every((t) => t.parentRunId !== run.events[0]!.runId)).toBe(true);

    expect(engine.cancelTask(second.taskId)).toBe(true);
    for (const request of f.requestsOf('beta')) expect((await f.server.waitForClosed(request.index)).aborted).toBe(true);
    expect(engine.tasks.get(second.taskId)).toMatchObject({ state: 'cancelled', result: expect.stringMatching(/^ERROR: .*cancelled/) });
    for (const t of grandchildren) expect(engine.tasks.get(t.taskId)?.state).toBe('cancelled');

    gate.open();
    await run.done;
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    const rows = own(run.events, 'ToolCallEnd').find((e) => e.toolName === 'multitask')!.text.split('\n').slice(1, -1);
    expect(rows.map((r) => /<result_status>(\w+)</.exec(r)![1])).toEqual(['success', 'failure', 'success']);
    // The cancelled task never took another step: one request from its agent, none after.
    expect(f.requestsOf('alpha').filter((r) => turnOf(r).prompt === 'job 2')).toHaveLength(1);
    expect(f.requestsOf('beta')).toHaveLength(2);
    for (const t of engine.tasks.list().filter((t) => t.agentName === 'alpha' && t.taskId !== second.taskId)) {
      expect((await settled(engine.tasks, t.taskId)).state).toBe('done');
    }
    // No RunEnd of the cancelled task or its grandchildren was faked into the stream.
    const ends = wraps(run.events).filter((w) => w.event.type === 'RunEnd');
    expect(ends.map((w) => w.taskIndex).sort()).toEqual([1, 3]);
    expect(wraps(run.events).filter((w) => w.taskId === second.taskId).some((w) => w.event.type === 'TaskWrap' && w.event.event.type === 'RunEnd')).toBe(false);
  });
});
