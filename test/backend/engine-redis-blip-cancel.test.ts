import { describe, expect, it } from 'vitest';
import { redisBackend } from '../../src/backend/redis-backend.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { taskArgs } from '../support/delegation-script.js';
import { blipProxy } from './blip-proxy.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

/** How long the engine's side cannot reach Redis. */
const OUTAGE_MS = 1500;
/** The child's steps: at 100 ms each, it would still run well after the outage if nothing stopped it. */
const STEPS = 60;

describe.skipIf(!HAS_REDIS)("an outage of Redis on the engine's side while its background task runs on a worker", () => {
  const scale = useScaleKits();

  it('the task failed for it is cancelled on the worker once Redis is back: its child makes no more model requests', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const proxy = await blipProxy(scale.redis.port);
    try {
      let cut = false;
      kit.fixture.route({
        main: (t) => (t.step === 1 ? { toolCalls: [{ name: 'task', arguments: { ...taskArgs('worker', 'dig', 'bg'), background: true } }] } : { text: 'started it' }),
        worker: (t) => {
          if (t.step === 3 && !cut) {
            cut = true;
            proxy.cut(OUTAGE_MS);
          }
          return { ...(t.step >= STEPS ? { text: 'child finished' } : { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] }), delayMs: 100 };
        },
      });
      const worker = await kit.worker(); // straight to Redis: its side sees no outage
      const engineBackend = await redisBackend({ url: proxy.url, prefix: kit.prefix, stallIntervalMs: 1000 });
      let engine: HarnessEngine | undefined;
      try {
        engine = await kit.engine({ maxSteps: STEPS + 5 }, [testAgent('worker', { maxSteps: STEPS + 5 })], engineBackend);
        await engine.call('go', { sessionId: 's' });
        const [task] = engine.tasks.list();
        const info = await engine.tasks.whenSettled(task!.taskId);
        expect(info?.state).toBe('failed');
        // Bounded: the cancel goes once the engine reaches Redis again; without it the child runs all its steps.
        await waitFor(() => worker.running === 0, 20_000);
        const settled = kit.fixture.requestsOf('worker').length;
        expect(settled).toBeLessThan(STEPS);
        // Stopped for good: Redis answers the engine again, and the child asks nothing more.
        await engineBackend.parts.redis.ping();
        expect(kit.fixture.requestsOf('worker').length).toBe(settled);
      } finally {
        await engine?.close();
        await engineBackend.close();
      }
    } finally {
      await proxy.close();
    }
  });

  it('with Redis gone for good on its side, the engine and its backend still close at once (the cancel waits for nothing)', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const proxy = await blipProxy(scale.redis.port);
    try {
      kit.fixture.route({
        main: (t) => (t.step === 1 ? { toolCalls: [{ name: 'task', arguments: { ...taskArgs('worker', 'dig', 'bg'), background: true } }] } : { text: 'started it' }),
        worker: (t) => {
          if (t.step === 2) proxy.cut(Infinity);
          return { toolCalls: [{ name: 'todo', arguments: { todos: [] } }], delayMs: 100 };
        },
      });
      await kit.worker();
      const engineBackend = await redisBackend({ url: proxy.url, prefix: kit.prefix, stallIntervalMs: 1000 });
      const engine = await kit.engine({ maxSteps: STEPS + 5 }, [testAgent('worker', { maxSteps: STEPS + 5 })], engineBackend);
      await engine.call('go', { sessionId: 's' });
      const [task] = engine.tasks.list();
      expect((await engine.tasks.whenSettled(task!.taskId))?.state).toBe('failed');
      const before = Date.now();
      await engine.close();
      await engineBackend.close();
      // Bounded by the backend's own waits (connectTimeoutMs, 5 s), not by a cancel that cannot be sent.
      expect(Date.now() - before).toBeLessThan(5_000);
    } finally {
      await proxy.close();
    }
  });
});
