/**
 * A budget's hash that disappears from Redis mid-run (a restart without persistence, a
 * `volatile-*` eviction) used to be made again from the caller's limit with nothing used:
 * the run went on on a fresh pool and spent its budget a second time (1500 of 1000, its
 * Budget events going `400/1000, 100/0, 200/1000`), and a settle on the missing hash made
 * one with no `limit` and a negative `reserved`. Now a reservation or settle that finds a
 * budget it counted in gone fails the run, naming the key; only its first reservation makes it.
 */
import { describe, expect, it, vi } from 'vitest';
import { RedisTokenBudget } from '../../src/backend/redis-budget.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { costing } from './support/costing.js';
import { HAS_REDIS, startRedis } from './redis-server.js';
import { eventsOf, startScaleKit, useScaleKits, waitFor } from './scale-kit.js';

const GONE = /^the token budget's record \S+:budget:\S+ in Redis is gone \(Redis restarted .*\): the run stops so it cannot spend past its budget\. Give Redis persistence \(appendonly yes\) and maxmemory-policy noeviction$/;

describe.skipIf(!HAS_REDIS)("a token budget's record gone from Redis", () => {
  const scale = useScaleKits();

  it('a settle whose budget is gone fails naming it, and makes no hash', async () => {
    const kit = await scale.kit();
    const { redis, keys } = (await kit.backend()).parts;
    const pool = RedisTokenBudget.root(redis, keys, 1000);
    const { key } = pool.shared.nodes[0]!;
    const reservation = await pool.reserve(100);
    await redis.del(key); // what an eviction or a restart does
    await expect(reservation!.settle(100)).rejects.toMatchObject({ name: 'RedisBackendError', message: expect.stringMatching(GONE) });
    await expect(reservation!.settle(100)).rejects.toThrow(key);
    expect(await redis.exists(key)).toBe(0);
  });

  it('a reservation on a budget counted in is refused once it is gone, here and on a worker; a first one makes it', async () => {
    const kit = await scale.kit();
    const [engineSide, workerSide] = [(await kit.backend()).parts, (await kit.backend()).parts];
    const pool = RedisTokenBudget.root(engineSide.redis, engineSide.keys, 1000);
    const root = pool.shared.nodes[0]!.key;
    await (await pool.reserve(100))!.settle(100);
    // A child on a worker with a limit of its own: its first reservation makes its hash.
    const onWorker = RedisTokenBudget.attach(workerSide.redis, workerSide.keys, pool.shared, workerSide.keys.budgetHeld('job_1')).child(300);
    const own = onWorker.shared!.nodes[0]!.key;
    expect(await (await onWorker.reserve(100))!.settle(100)).toEqual({ limit: 300, used: 100, remaining: 200 });
    await engineSide.redis.del(root);
    await expect(pool.reserve(100)).rejects.toThrow(`the token budget's record ${root} in Redis is gone`);
    await expect(onWorker.reserve(100)).rejects.toThrow(`the token budget's record ${root} in Redis is gone`);
    // Refused before any write: neither hash changed, none made.
    expect(await engineSide.redis.exists(root)).toBe(0);
    expect(await engineSide.redis.hgetall(own)).toEqual({ limit: '300', used: '100', reserved: '0' });
    await engineSide.redis.del(own);
    await expect(onWorker.child().reserve(1)).rejects.toThrow(`the token budget's record ${own} in Redis is gone`);
  });

  it('one found last more than a day ago (its expiry) is counted afresh, as a pool that expired is', async () => {
    const kit = await scale.kit();
    const { redis, keys } = (await kit.backend()).parts;
    const pool = RedisTokenBudget.root(redis, keys, 1000);
    const { key } = pool.shared.nodes[0]!;
    await (await pool.reserve(100))!.settle(100);
    await redis.del(key);
    await expect(pool.reserve(100)).rejects.toThrow(`the token budget's record ${key} in Redis is gone`);
    // A day and a minute on (this process's clock): Redis would have let it expire by then.
    const later = performance.now() + 24 * 60 * 60_000 + 60_000;
    const clock = vi.spyOn(performance, 'now').mockReturnValue(later);
    try {
      expect(await (await pool.reserve(100))!.settle(50)).toEqual({ limit: 1000, used: 50, remaining: 950 });
    } finally {
      clock.mockRestore();
    }
  });

  it('a Redis restart while a request is in flight ends the run on that error, once, within its budget', { timeout: 60_000 }, async () => {
    const own = await startRedis();
    const kit = await startScaleKit(own, 1000);
    try {
      const backend = await kit.backend();
      let restarted = false;
      kit.fixture.route({
        main: async (t) => {
          if (t.step === 5 && !restarted) {
            restarted = true;
            await own.stop();
            await own.restart();
            await waitFor(() => backend.parts.redis.status === 'ready');
          }
          return costing(t.toolNames.length === 0 ? { text: 'out of budget' } : { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] });
        },
      });
      const engine = await kit.engine({ tokenBudget: 1000, maxSteps: 60 }, [], backend);
      const events = await eventsOf(engine.stream('go'));
      const budgets = events.flatMap((e: AgentEvent) => (e.type === 'Budget' ? [`${e.used}/${e.limit}`] : []));
      // Counted on one pool to the restart, then nothing counted afresh (it went on to 1500 of 1000).
      expect(budgets).toEqual(['100/1000', '200/1000', '300/1000', '400/1000']);
      expect(kit.fixture.server.requests.filter((r) => r.completed)).toHaveLength(5);
      expect(events.filter((e) => e.type === 'RunEnd' || e.type === 'RunCancelled')).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(GONE) });
    } finally {
      await kit.close();
      await own.stop();
    }
  });
});
