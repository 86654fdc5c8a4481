/**
 * A worker killed mid-request leaves nothing of its parent's token budget held: what its
 * requests reserved is given back by the engine that fails its task for the lost heartbeat,
 * so the parent and the task's siblings can spend their whole budget. The reservation used
 * to stay counted against the pool until the pool expired (a day), as if still in flight.
 */
import { describe, expect, it } from 'vitest';
import { RedisTokenBudget, releaseHeldBudget } from '../../src/backend/redis-budget.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { testAgent } from '../support/agent-turns.js';
import { multitaskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { PROCESS_TEST_TIMEOUT_MS, stopProcess, workerProcess } from './worker-processes.js';

const STEP = 100;
const usage = { prompt_tokens: 0, completion_tokens: STEP, total_tokens: STEP };
const costing = (reply: FakeReply): FakeReply => ({ ...reply, usage });
const STALL_MS = 1000;

describe.skipIf(!HAS_REDIS)('a token budget when a worker dies mid-request', () => {
  const scale = useScaleKits();

  it("the dead child's reservation is given back: nothing stays reserved, and the parent spends its whole budget", { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const kit = await scale.kit(STALL_MS);
    let parentRequests = 0;
    kit.fixture.route({
      main: (t) => {
        parentRequests++;
        if (t.step === 1) return costing(multitaskReply([[1, 'explorer', 'first', 'one']]));
        // A harmless tool at every step it may, so only its budget stops it.
        return costing(t.toolNames.length === 0 ? { text: 'out of budget' } : { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] });
      },
      explorer: () => ({ hang: true }), // killed during this request: it never settles
    });
    const proc = await workerProcess(kit, scale.redis, { model: 'proc-model', stallMs: STALL_MS });
    try {
      const engine = await kit.engine({ distributeTasks: true, tokenBudget: 1000, maxSteps: 40 }, [testAgent('explorer')]);
      const done = engine.call('go');
      await waitFor(() => kit.fixture.server.requests.some((r) => r.body.model === 'proc-model'));
      proc.kill('SIGKILL');
      const { text } = await done;
      expect(text).toBe('out of budget');
      const { redis, keys } = (await kit.backend()).parts;
      const pools = await redis.keys(keys.budget('*'));
      const reserved = await Promise.all(pools.map(async (key) => Number((await redis.hget(key, 'reserved')) ?? 0)));
      expect(reserved).toEqual([0]);
      // 10 requests of 100 tokens: the whole budget, none of it kept by the dead child.
      expect(parentRequests * STEP).toBe(1000);
    } finally {
      await stopProcess(proc);
    }
  });

  it('a release gives back what a job held once: a settle that comes after it (its worker was only cut off) counts what it used, and gives back nothing twice', async () => {
    const kit = await scale.kit();
    const backend = await kit.backend();
    const { redis, keys } = backend.parts;
    const pool = backend.newTokenBudget(10) as RedisTokenBudget;
    const onWorker = RedisTokenBudget.attach(redis, keys, pool.shared, keys.budgetHeld('job_1')).child(8);
    const [first, second] = [await onWorker.reserve(3), await onWorker.reserve(4)];
    expect((await pool.reserve(1))!.tokens).toBe(1); // 7 + 1 of 10 in flight
    expect(await releaseHeldBudget(redis, keys, 'job_1')).toBe(2);
    expect(await releaseHeldBudget(redis, keys, 'job_1')).toBe(0);
    expect(await first!.settle(2)).toEqual({ limit: 8, used: 2, remaining: 6 });
    await second!.settle(0);
    // Of 10: 2 used, 1 still reserved by the engine's own request; the released 7 free again.
    const root = pool.shared.nodes[0]!.key;
    expect(await redis.hmget(root, 'used', 'reserved')).toEqual(['2', '1']);
  });
});
