/**
 * The bound on background results waiting in Redis follows the engine's configured
 * `taskTrackerLimits` (issue 28 review, item 2): it used the defaults, so a worker's puts
 * (the worker knows no engine's limits) kept 1,000 results whatever the engine said.
 */
import { describe, expect, it } from 'vitest';
import { publishResult } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

function finished(i: number): TaskInfo {
  return { taskId: `task_${i}`, agentName: 'digger', description: `dig ${i}`, sessionId: 's', parentRunId: 'run_1', background: true, state: 'done', startedAt: 1, endedAt: 2, result: `found ${i}` };
}

describe.skipIf(!HAS_REDIS)('the bound on background results waiting in Redis', () => {
  const scale = useScaleKits();


  it("is the engine's configured taskTrackerLimits, for the results a worker puts too", async () => {
    const kit = await scale.kit();
    const [engineSide, workerSide] = await Promise.all([kit.backend(), kit.backend()]);
    const engine = await kit.engine({ taskTrackerLimits: { undeliveredResults: 2, undeliveredChars: 1_000 } }, [], engineSide);
    const { redis, keys } = workerSide.parts;
    await waitFor(async () => (await redis.get(keys.waitingBound)) !== null);
    // What a worker does with each background result; it was never told the engine's limits.
    for (let i = 0; i < 3; i++) await publishResult(redis, keys, finished(i));
    expect(await redis.zcard(keys.waitingOrder)).toBe(2);
    await caughtUp(engineSide);
    expect(engine.tasks.takeDropped('s')).toEqual({ count: 1, taskIds: ['task_0'] });
    expect(engine.tasks.takeUndelivered('s').map((t) => t.taskId)).toEqual(['task_1', 'task_2']);

    // The text bound too: one result heavier than 1,000 units leaves only itself waiting.
    await publishResult(redis, keys, finished(3));
    await publishResult(redis, keys, { ...finished(4), result: 'x'.repeat(1_200) });
    expect(await redis.zcard(keys.waitingOrder)).toBe(1);
  });
});
