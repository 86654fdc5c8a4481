/**
 * A tree's pool gone from Redis (a `volatile-*` eviction, a restart without persistence)
 * while a job sat queued for a worker: the worker attached to the job's budget knowing of no
 * node it had counted in, so its first reservation made the pool afresh, with nothing used,
 * and the tree spent its budget a second time (1200 of 1000) where the engine refused.
 * The job now says which of its nodes its sender had counted in, and how long ago; the worker
 * refuses those gone as the engine does, and spends nothing, and starts a fresh count where
 * the sender would (a pool found longer ago than its expiry).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisTokenBudget } from '../../src/backend/redis-budget.js';
import { testAgent } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';
import { settled } from '../support/lifecycle-script.js';
import { busy, costing } from './support/costing.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const GONE = /the token budget's record \S+:budget:\S+ in Redis is gone \(/;
const DAY = 24 * 60 * 60_000;
afterEach(() => vi.restoreAllMocks());

describe.skipIf(!HAS_REDIS)("a token budget's record gone before a worker's first reservation", () => {
  const scale = useScaleKits();

  it('a budget attached from a job refuses the nodes its sender counted in, and makes one it did not', async () => {
    const kit = await scale.kit();
    const [engineSide, workerSide] = [(await kit.backend()).parts, (await kit.backend()).parts];
    const pool = RedisTokenBudget.root(engineSide.redis, engineSide.keys, 1000);
    const root = pool.shared.nodes[0]!.key;
    await (await pool.reserve(900))!.settle(900);
    // A child with a limit of its own that never reserved: its node is made by its first reservation, wherever that is.
    const fresh = pool.child(50) as RedisTokenBudget;
    const sent = fresh.shared; // what a job carries
    await engineSide.redis.del(root);
    const onWorker = RedisTokenBudget.attach(workerSide.redis, workerSide.keys, sent, workerSide.keys.budgetHeld('job_1'));
    await expect(onWorker.reserve(100)).rejects.toThrow(`the token budget's record ${root} in Redis is gone`);
    expect(await engineSide.redis.keys(engineSide.keys.budget('*'))).toEqual([]); // none made afresh
    // A tree whose root is there: the child's node, never counted in by its sender, is made by the worker.
    const other = RedisTokenBudget.root(engineSide.redis, engineSide.keys, 1000);
    await (await other.reserve(100))!.settle(100);
    const child = other.child(50) as RedisTokenBudget;
    const attached = RedisTokenBudget.attach(workerSide.redis, workerSide.keys, child.shared, workerSide.keys.budgetHeld('job_2'));
    expect(await (await attached.reserve(10))!.settle(10)).toEqual({ limit: 50, used: 10, remaining: 40 });
  });

  it('a node its sender found nearly a day before is judged on the worker as its sender judges it (its age travels with the job)', async () => {
    const kit = await scale.kit();
    const [engineSide, workerSide] = [(await kit.backend()).parts, (await kit.backend()).parts];
    // Both clocks the budgets read (the monotonic one, and the wall clock a job carries), moved forward: a day passes in no time.
    const [real, realWall] = [performance.now.bind(performance), Date.now.bind(Date)];
    let shift = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => real() + shift);
    vi.spyOn(Date, 'now').mockImplementation(() => realWall() + shift);
    const pool = RedisTokenBudget.root(engineSide.redis, engineSide.keys, 1000);
    const root = pool.shared.nodes[0]!.key;
    await (await pool.reserve(100))!.settle(100);
    shift = DAY - 60_000; // idle 23h59m: within the pool's expiry, so the job says it was counted in
    const sent = (pool.child(50) as RedisTokenBudget).shared;
    expect(Date.now() - sent.nodes.find((n) => n.key === root)!.countedAt!).toBeGreaterThanOrEqual(DAY - 60_000);
    shift = DAY + 60_000; // the job waited two minutes; the pool expired in Redis meanwhile
    await engineSide.redis.del(root);
    const onWorker = RedisTokenBudget.attach(workerSide.redis, workerSide.keys, sent, workerSide.keys.budgetHeld('job_3'));
    const outcome = (budget: RedisTokenBudget): Promise<string> => budget.reserve(10).then(() => 'fresh count', (e: Error) => `refused: ${e.message}`);
    const [theirs, own] = [await outcome(onWorker), await outcome(pool)];
    expect(own).toBe('fresh count'); // documented: a run that paused a day starts a fresh count
    expect(theirs).toBe(own);
    // A forged time (no finite number) counts as never found: the worker makes the node, as for a fresh child.
    const forged = { ...sent, nodes: sent.nodes.map((n) => ({ ...n, countedAt: Number.NaN })) };
    await engineSide.redis.del(root);
    const onForged = RedisTokenBudget.attach(workerSide.redis, workerSide.keys, forged, workerSide.keys.budgetHeld('job_4'));
    expect(await outcome(onForged)).toBe('fresh count');
  });

  it('end to end: the queued background task fails with the refusal, and its worker spends nothing', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const { redis, keys } = (await kit.backend()).parts;
    kit.fixture.route({
      main: (t) => costing(t.step === 1 ? { toolCalls: [{ name: 'task', arguments: { ...taskArgs('worker', 'dig', 'bg'), background: true } }] } : { text: 'started it' }),
      worker: (t) => (t.toolNames.length === 0 ? costing({ text: 'child out of budget' }) : busy),
    });
    const engine = await kit.engine({ tokenBudget: 1000, maxSteps: 60 }, [testAgent('worker', { maxSteps: 60 })]);
    await engine.call('go', { sessionId: 's' }); // the parent spent 200; its job waits for a worker
    const pool = await redis.keys(keys.budget('*'));
    expect(pool).toHaveLength(1);
    await redis.del(...pool);
    await kit.worker();
    const [task] = engine.tasks.list();
    expect(await settled(engine.tasks, task!.taskId)).toMatchObject({ state: 'failed', result: expect.stringMatching(GONE) });
    expect(kit.fixture.server.requests.filter((r) => turnOf(r).agent === 'worker')).toEqual([]);
    expect(await redis.keys(keys.budget('*'))).toEqual([]);
  });
});
