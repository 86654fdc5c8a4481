/**
 * A tree's token budget in Redis (issue 22, item 12): children on workers draw from the
 * parent's pool, not from a snapshot of its remainder, and Redis takes each reservation
 * atomically, so two processes never both take the last tokens.
 */
import { describe, expect, it } from 'vitest';
import { RedisTokenBudget } from '../../src/backend/redis-budget.js';
import { reserve$ } from '../../src/agent/reserve-request.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { testAgent } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { multitaskReply, taskArgs, type TaskTuple } from '../support/delegation-script.js';
import { settled } from '../support/lifecycle-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';
import { busy, costing, STEP } from './support/costing.js';
import { stopProcess, workerProcess } from './worker-processes.js';

/** A worker that calls a harmless tool at every step it may (so only its budget stops it). */
const busyWorker = (t: { toolNames: readonly string[] }): FakeReply => (t.toolNames.length === 0 ? costing({ text: 'out of budget' }) : busy);

describe.skipIf(!HAS_REDIS)('a token budget shared with workers through Redis', () => {
  const scale = useScaleKits();
  let kit: ScaleKit;

  /** What the fake server charged: every request it answered to the end. */
  const spent = (): number => kit.fixture.server.requests.filter((r) => r.completed).length * STEP;

  it('distributed children draw from one pool (measured: 4.2 times the budget, each child had a snapshot)', async () => {
    kit = await scale.kit();
    const tasks: TaskTuple[] = Array.from({ length: 5 }, (_, i) => [i + 1, 'worker', `job ${i + 1}`, `t${i + 1}`] as const);
    // Each answer takes a moment, so the children's requests overlap.
    kit.fixture.route({ main: (t) => costing(t.step === 1 ? multitaskReply(tasks) : { text: 'summary' }), worker: (t) => ({ ...busyWorker(t), delayMs: 30 }) });
    const engine = await kit.engine({ distributeTasks: true, tokenBudget: 1000, maxSteps: 40 }, [testAgent('worker', { maxSteps: 40 })]);
    await Promise.all([kit.worker({ concurrency: 5 }), kit.worker({ concurrency: 5 })]);
    const events = await eventsOf(engine.stream('go'));
    const { server } = kit.fixture;
    // Every child ran on a worker, and they ran side by side.
    expect(server.peakInFlight).toBeGreaterThan(1);
    // The guarantee: at most one request past the budget per request in flight.
    expect(spent()).toBeGreaterThanOrEqual(1000);
    expect(spent()).toBeLessThanOrEqual(1000 + STEP * server.peakInFlight);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('the token budget is spent') });
  });

  it('a tree across the engine and two worker processes stays within its budget, plus one request per request in flight', { timeout: 180_000 }, async () => {
    // Generous: a fresh worker process compiling its modules on a loaded machine is not a dead one.
    kit = await scale.kit(10_000);
    const k = kit;
    const tasks: TaskTuple[] = Array.from({ length: 6 }, (_, i) => [i + 1, 'worker', `job ${i + 1}`, `t${i + 1}`] as const);
    k.fixture.route({ main: (t) => costing(t.step === 1 ? multitaskReply(tasks) : { text: 'summary' }), worker: (t) => ({ ...busyWorker(t), delayMs: 30 }) });
    // The processes' children name their own model id: every child request shows where it ran.
    const procs = await Promise.all([1, 2].map(() => workerProcess(k, scale.redis, { model: 'proc-model', stallMs: 10_000, concurrency: 3 })));
    try {
      const engine = await k.engine({ distributeTasks: true, tokenBudget: 1000, maxSteps: 40, multitaskMaxTasks: 6 }, [testAgent('worker', { maxSteps: 40 })]);
      const events = await eventsOf(engine.stream('go'));
      const { server } = k.fixture;
      const children = server.requests.filter((r) => turnOf(r).agent === 'worker');
      expect(children.length).toBeGreaterThan(1);
      expect(children.every((r) => r.body.model === 'proc-model')).toBe(true);
      expect(server.peakInFlight).toBeGreaterThan(1);
      // With a snapshot of the remainder per child (before the shared pool) each of the 6
      // children could spend the 900 left: 5,500 in all. One pool in Redis: within the budget
      // plus at most one request per request in flight.
      expect(spent()).toBeGreaterThanOrEqual(1000);
      expect(spent()).toBeLessThanOrEqual(1000 + STEP * server.peakInFlight);
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('the token budget is spent') });
    } finally {
      await Promise.all(procs.map(stopProcess));
    }
  });

  it('a background task on a worker draws from its parent run\'s pool', async () => {
    kit = await scale.kit();
    kit.fixture.route({
      main: (t) => costing(t.step === 1 ? { toolCalls: [{ name: 'task', arguments: { ...taskArgs('worker', 'dig', 'bg'), background: true } }] } : { text: 'started it' }),
      worker: busyWorker,
    });
    const engine = await kit.engine({ tokenBudget: 200, maxSteps: 40 }, [testAgent('worker', { maxSteps: 40 })]);
    await kit.worker();
    await engine.call('go', { sessionId: 's' });
    const [task] = engine.tasks.list();
    const info = await settled(engine.tasks, task!.taskId);
    expect(info).toMatchObject({ state: 'failed', result: expect.stringContaining('the token budget is spent') });
    expect(spent()).toBeLessThanOrEqual(200 + STEP * kit.fixture.server.peakInFlight);
  });

  it('reservations from separate connections are atomic: a pool of 10 lets exactly 10 one-token requests through', async () => {
    kit = await scale.kit();
    const [a, b] = await Promise.all([kit.backend(), kit.backend()]);
    const root = a.newTokenBudget(10) as RedisTokenBudget;
    const elsewhere = RedisTokenBudget.attach(b.parts.redis, b.parts.keys, root.shared);
    const all = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? root : elsewhere).reserve(1)));
    const granted = all.filter((r) => r !== undefined);
    expect(granted).toHaveLength(10);
    expect(granted.filter((r) => r.last)).toHaveLength(1);
    // Settling gives back what a request did not use: 3 of them used nothing, so 3 more fit.
    await Promise.all(granted.slice(0, 3).map((r) => r.settle(0)));
    const state = await granted[3]!.settle(1);
    expect(state).toEqual({ limit: 10, used: 1, remaining: 9 });
    const more = await Promise.all(Array.from({ length: 5 }, () => elsewhere.reserve(1)));
    expect(more.filter((r) => r !== undefined)).toHaveLength(3);
    for (const r of [...granted.slice(4), ...more]) await r?.settle(0);
    // A child's own limit binds within the pool, counted on both.
    const child = elsewhere.child(2);
    expect(await child.reserve(undefined)).toMatchObject({ tokens: 1, last: false }); // the pool's last request cost 1
    expect(await child.reserve(5)).toMatchObject({ tokens: 5, last: true }); // 1 of its 2 left: let through, as its last
    expect(await child.reserve(1)).toBeUndefined();
  });

  it('a reservation that arrives after its run was stopped is given back, not held until the pool expires', async () => {
    kit = await scale.kit();
    const backend = await kit.backend();
    const pool = backend.newTokenBudget(1);
    // Stopped before Redis answered: the one token it was granted must come back.
    reserve$(pool, 1).subscribe().unsubscribe();
    let granted = false;
    await waitFor(async () => (granted = (await pool.reserve(1)) !== undefined));
    expect(granted).toBe(true);
  });
});
