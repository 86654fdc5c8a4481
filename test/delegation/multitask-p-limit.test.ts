import { afterEach, describe, expect, it } from 'vitest';
import type { TaskQueuedEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { own, record, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, type TaskTuple } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const tasks = (n: number): TaskTuple[] => Array.from({ length: n }, (_, i) => [i + 1, 'alpha', `job ${i + 1}`, `task ${i + 1}`] as const);

/** Resolves when `check` holds, looking after every event-loop turn (bounded). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!check()) throw new Error(`timed out waiting until ${what}`);
}

describe('the multitask pool is p-limit: queued tasks are visible and can be cancelled', () => {
  it('a queued task is reported (TaskQueued, TaskInfo queued) and cancelTask takes it out of the queue: it never starts', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    f = await startDelegationFixture({
      main: steps(multitaskReply(tasks(3))),
      alpha: async (turn) => {
        await gate;
        return { text: `did ${turn.prompt}` };
      },
    });
    const engine = f.engine({ multitaskMaxTasks: 2 }, [testAgent('alpha')]);
    const run = record(engine.stream('go'));
    await until(() => f.requestsOf('alpha').length === 2, 'two children are in flight');
    const queued = run.events.filter((e): e is TaskQueuedEvent => e.type === 'TaskQueued');
    expect(queued.map((q) => [q.taskIndex, q.taskDescription])).toEqual([[3, 'task 3']]);
    expect(engine.tasks.get(queued[0]!.taskId)).toMatchObject({ state: 'queued', description: 'task 3' });
    const settled = engine.tasks.whenSettled(queued[0]!.taskId);

    expect(engine.cancelTask(queued[0]!.taskId)).toBe(true);
    expect(await settled).toMatchObject({ state: 'cancelled', result: expect.stringContaining('never started') });
    release();
    await run.done;
    // Never sent, never run; the two others finished; the result says what happened to each.
    expect(f.requestsOf('alpha').map((r) => r.body.messages?.at(-1)?.content)).toEqual(['job 1', 'job 2']);
    const mine = wraps(run.events).filter((w) => w.taskId === queued[0]!.taskId).map((w) => w.event.type);
    expect(mine).toEqual(['RunStart', 'RunCancelled']);
    const text = own(run.events, 'ToolCallEnd')[0]!.text;
    expect(text).toContain('did job 1');
    expect(text).toContain('did job 2');
    expect(text).toMatch(/<index>3<\/index>.*never started/s);
    expect(own(run.events, 'RunEnd')[0]!.abnormal).toBe(false);
  });

  it('twenty cancels in a row (queued and running) leave no slot behind: the rest still run three at once', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Jobs 1-10 are cancelled while they run (they hang until their request is aborted);
    // 17-26 while they wait; 11-16 are left to finish once the gate opens.
    f = await startDelegationFixture({
      main: steps(multitaskReply(tasks(26))),
      alpha: async (turn) => {
        if (Number(turn.prompt.split(' ')[1]) <= 10) return { hang: true };
        await gate;
        return { text: `did ${turn.prompt}` };
      },
    });
    const engine = f.engine({ multitaskMaxTasks: 3 }, [testAgent('alpha')]);
    const run = record(engine.stream('go'));
    const inState = (state: string) => engine.tasks.list().filter((t) => t.state === state);
    await until(() => f.requestsOf('alpha').length === 3, 'three children are in flight');
    for (const task of inState('queued').slice(-10)) expect(engine.cancelTask(task.taskId)).toBe(true);
    for (let round = 0; round < 10; round++) {
      await until(() => inState('running').length === 3, 'the pool is full again');
      const oldest = inState('running').sort((a, b) => a.description.localeCompare(b.description, 'en', { numeric: true }))[0]!;
      expect(engine.cancelTask(oldest.taskId)).toBe(true);
    }
    // Six tasks left: three run at once at the server, three wait.
    await until(() => inState('running').length === 3 && f.server.inFlight === 3, 'three run after the cancels');
    expect(inState('queued')).toHaveLength(3);
    expect(inState('cancelled')).toHaveLength(20);
    f.server.resetPeak();
    open();
    await run.done;
    expect(inState('done').map((t) => t.description).sort()).toEqual(['task 11', 'task 12', 'task 13', 'task 14', 'task 15', 'task 16']);
    expect(f.server.peakInFlight).toBe(3);
    expect(own(run.events, 'RunEnd')[0]!.abnormal).toBe(false);
  });
});

describe('maxConcurrentRequests: one p-limit for every model request of an engine', () => {
  it('three concurrent runs each fanning out to four children never have more than 2 requests in flight', async () => {
    f = await startDelegationFixture({ main: steps(multitaskReply(tasks(4))), alpha: (t) => ({ text: `did ${t.prompt}`, delayMs: 30 }) });
    const engine = f.engine({ multitaskMaxTasks: 4, maxConcurrentRequests: 2 }, [testAgent('alpha')]);
    const results = await Promise.all([engine.call('one'), engine.call('two'), engine.call('three')]);
    expect(results.map((r) => r.abnormal)).toEqual([false, false, false]);
    expect(f.requestsOf('alpha')).toHaveLength(12);
    expect(f.server.peakInFlight).toBe(2);
  });

  it('without it the same runs reach more (the bound is what holds them)', async () => {
    f = await startDelegationFixture({ main: steps(multitaskReply(tasks(4))), alpha: (t) => ({ text: `did ${t.prompt}`, delayMs: 30 }) });
    const engine = f.engine({ multitaskMaxTasks: 4 }, [testAgent('alpha')]);
    await Promise.all([engine.call('one'), engine.call('two'), engine.call('three')]);
    expect(f.server.peakInFlight).toBeGreaterThan(2);
  });

  it('a run cancelled while its requests wait for a slot sends none of them and frees nothing it never held', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const script = steps(multitaskReply(tasks(3)));
    // The first request holds the only slot until the second run has gone.
    f = await startDelegationFixture({ main: async (turn) => (turn.step === 1 ? gate.then(() => script(turn)) : script(turn)), alpha: (t) => ({ text: `did ${t.prompt}`, delayMs: 30 }) });
    const engine = f.engine({ multitaskMaxTasks: 3, maxConcurrentRequests: 1 }, [testAgent('alpha')]);
    const first = record(engine.stream('first'));
    const second = record(engine.stream('second'));
    await until(() => f.server.requests.length >= 1, 'one request is sent');
    second.subscription.unsubscribe();
    open();
    await first.done;
    // Only the first run's requests were ever sent: main's two steps and three children.
    expect(f.server.requests.filter((r) => r.body.messages?.some((m) => m.content === 'second'))).toEqual([]);
    expect(f.server.peakInFlight).toBe(1);
    expect(own(first.events, 'RunEnd')[0]!.abnormal).toBe(false);
    // The slot is free: another run goes through.
    expect((await engine.call('third')).abnormal).toBe(false);
  });
});

describe('multitask items without an index (Solon dialect)', () => {
  it('take their place in the list (1, 2, ...); an index given twice, or a list mixing given and default indexes, is refused', async () => {
    const items = [0, 1, 2].map((i) => ({ agent_name: 'alpha', prompt: `job ${i + 1}`, description: `task ${i + 1}` }));
    f = await startDelegationFixture({
      main: steps({ toolCalls: [{ name: 'multitask', arguments: JSON.stringify({ tasks: items }) }] }),
      alpha: (t) => ({ text: `did ${t.prompt}` }),
    });
    const engine = f.engine({}, [testAgent('alpha')]);
    const run = record(engine.stream('go'));
    await run.done;
    const text = own(run.events, 'ToolCallEnd')[0]!.text;
    expect([...text.matchAll(/<index>(\d)<\/index>.*?did (job \d)/gs)].map((m) => `${m[1]}=${m[2]}`)).toEqual(['1=job 1', '2=job 2', '3=job 3']);

    const clash = [{ ...items[0]!, index: 2 }, items[1]!];
    f.route({ main: steps({ toolCalls: [{ name: 'multitask', arguments: JSON.stringify({ tasks: clash }) }] }), alpha: () => ({ text: 'never' }) });
    const refused = record(engine.stream('again'));
    await refused.done;
    expect(own(refused.events, 'ToolCallEnd')[0]!.error).toMatch(/give every task its own index from 1, or leave every index out/);
    expect(f.requestsOf('alpha')).toHaveLength(3);
  });
});
