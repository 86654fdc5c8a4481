import { afterEach, describe, expect, it } from 'vitest';
import type { TaskQueuedEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { own, record, wraps } from '../support/collect-events.js';
import { startDelegationFixture, turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, type TaskTuple } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const FOUR: TaskTuple[] = [1, 2, 3, 4].map((i) => [i, 'alpha', `job ${i}`, `task ${i}`] as const);

/** Main fans out four tasks; every child hangs until its request is aborted. */
async function hangingBatch() {
  f = await startDelegationFixture({ main: steps(multitaskReply(FOUR)), alpha: () => ({ hang: true }) });
  return f.engine({ multitaskMaxTasks: 2 }, [testAgent('alpha')]);
}

/** Waits for the two running children's requests and returns their indexes at the server. */
async function twoChildrenInFlight(): Promise<number[]> {
  await f.server.waitForRequests(3);
  return f.requestsOf('alpha').map((r) => r.index);
}

describe('cancelling a delegating run', () => {
  it('by unsubscribing: aborts the running children at the server, drops the queued ones, emits nothing more', async () => {
    const engine = await hangingBatch();
    const run = record(engine.stream('go'));
    const running = await twoChildrenInFlight();
    expect(running).toHaveLength(2);
    const seen = run.events.length;
    run.subscription.unsubscribe();

    for (const index of running) expect((await f.server.waitForClosed(index)).aborted).toBe(true);
    // The two queued tasks never started: no request, no wrapped RunStart; their records,
    // queued until then, are cancelled with the running ones.
    expect(f.requestsOf('alpha')).toHaveLength(2);
    expect(engine.tasks.list().map((t) => t.state)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    const queued = run.events.filter((e) => e.type === 'TaskQueued').map((e) => (e as TaskQueuedEvent).taskId);
    expect(queued).toHaveLength(2);
    expect(wraps(run.events).filter((w) => queued.includes(w.taskId))).toEqual([]);
    expect(run.events).toHaveLength(seen);
    expect(run.completed).toBe(false);
    expect(run.error).toBeUndefined();
    // Nothing faked a RunEnd for the children either.
    expect(wraps(run.events).some((w) => w.event.type === 'RunEnd')).toBe(false);
  });

  it('by aborting options.signal: the same, then an AbortError and no RunEnd', async () => {
    const engine = await hangingBatch();
    const controller = new AbortController();
    const run = record(engine.stream('go', { signal: controller.signal }));
    const running = await twoChildrenInFlight();
    controller.abort();
    await run.done;
    expect((run.error as Error).name).toBe('AbortError');
    expect(own(run.events, 'RunEnd')).toHaveLength(0);
    expect(wraps(run.events).some((w) => w.event.type === 'RunEnd')).toBe(false);
    for (const index of running) expect((await f.server.waitForClosed(index)).aborted).toBe(true);
    expect(f.requestsOf('alpha')).toHaveLength(2);
  });

  it('call() rejects with AbortError when its signal aborts mid-delegation', async () => {
    const engine = await hangingBatch();
    const controller = new AbortController();
    const result = engine.call('go', { signal: controller.signal });
    const running = await twoChildrenInFlight();
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
    for (const index of running) expect((await f.server.waitForClosed(index)).aborted).toBe(true);
  });
});

describe('engine.cancelTask', () => {
  it('cancels one running task; the others finish and the parent ends normally', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    f = await startDelegationFixture({
      main: steps(multitaskReply(FOUR.slice(0, 3))),
      alpha: async (turn) => {
        if (turn.prompt === 'job 2') return { hang: true };
        await gate;
        return { text: `done ${turn.prompt}` };
      },
    });
    const engine = f.engine({ multitaskMaxTasks: 3 }, [testAgent('alpha')]);
    const run = record(engine.stream('go'));
    await f.server.waitForRequests(4);
    const second = engine.tasks.list().find((t) => t.description === 'task 2')!;
    expect(engine.tasks.list().filter((t) => t.state === 'running')).toHaveLength(3);

    expect(engine.cancelTask(second.taskId)).toBe(true);
    const request = f.requestsOf('alpha').find((r) => turnOf(r).prompt === 'job 2')!;
    expect((await f.server.waitForClosed(request.index)).aborted).toBe(true);
    expect(engine.tasks.get(second.taskId)?.state).toBe('cancelled');
    expect(engine.cancelTask(second.taskId)).toBe(false); // no longer running
    release();
    await run.done;

    expect(run.completed).toBe(true);
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    const rows = own(run.events, 'ToolCallEnd')[0]!.text.split('\n').slice(1, -1);
    expect(rows[0]).toContain('<result_status>success</result_status><result_content><![CDATA[done job 1]]>');
    expect(rows[1]).toContain('<result_status>failure</result_status>');
    expect(rows[1]).toMatch(/<!\[CDATA\[ERROR: .*cancelled/);
    expect(rows[1]).toContain(`<task_id>${second.taskId}</task_id>`);
    expect(rows[2]).toContain('<![CDATA[done job 3]]>');
    // The cancelled child got no RunEnd; the others did.
    const ended = wraps(run.events).filter((w) => w.event.type === 'RunEnd').map((w) => w.taskIndex);
    expect(ended.sort()).toEqual([1, 3]);
    expect(f.requestsOf('alpha')).toHaveLength(3);
  });

  it('returns false for an unknown task id', async () => {
    f = await startDelegationFixture();
    expect(f.engine().cancelTask('task_nope')).toBe(false);
  });
});
