/**
 * Background results given back (a prompt that could not be saved) keep their order and their
 * place. An engine's copy used to get them back reversed (each added behind the one given
 * back after it; only a sort by `endedAt` hid it, and results ending in one millisecond stayed
 * reversed), and Redis put them in front of every result waiting, as the oldest: under
 * pressure the bound dropped them first, before results that had waited longer. Now they go
 * back where they stood in the bound's order (the take answers it), so the oldest still go first.
 */
import { describe, expect, it } from 'vitest';
import { publishResult, SharedResults } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('background results given back', () => {
  const scale = useScaleKits();
  const t = Date.now();
  // One millisecond for all: nothing but the order they are held in tells them apart.
  const result = (taskId: string, sessionId: string, run = 0): TaskInfo => ({ taskId, agentName: 'explorer', description: 'd', sessionId, parentRunId: 'run_r', background: true, state: 'done', startedAt: t + run, endedAt: t + 10, result: `answer of ${taskId}` });

  it("keep their order in the engine's copy", async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys, hub } = backend.parts;
    const { results, stop } = await SharedResults.create(redis, keys, hub);
    try {
      for (const id of ['task_a', 'task_b', 'task_c']) await publishResult(redis, keys, result(id, 'ses_o'));
      await caughtUp(backend);
      await caughtUp(backend);
      const taken = results.take('ses_o');
      expect(taken.map((r) => r.taskId)).toEqual(['task_a', 'task_b', 'task_c']);
      await waitFor(async () => (await redis.hlen(keys.results('ses_o'))) === 0);
      results.putBack('ses_o', taken, undefined);
      expect(results.take('ses_o').map((r) => r.taskId)).toEqual(['task_a', 'task_b', 'task_c']);
    } finally {
      stop();
    }
  });

  it('go back to their place in the bound: under pressure the results that waited longer go first', async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    const tracker = backend.createTracker({ undeliveredResults: 3 });
    try {
      await waitFor(async () => (await redis.get(keys.waitingBound)) !== null);
      await publishResult(redis, keys, result('task_x', 'ses_other'));
      await publishResult(redis, keys, result('task_a', 'ses_p', 1));
      await publishResult(redis, keys, result('task_b', 'ses_p', 2));
      await caughtUp(backend);
      await caughtUp(backend);
      const taken = tracker.takeUndelivered('ses_p');
      expect(taken.map((r) => r.taskId)).toEqual(['task_a', 'task_b']);
      await waitFor(async () => (await redis.hlen(keys.results('ses_p'))) === 0);
      tracker.putBack('ses_p', taken, undefined); // the prompt could not be saved
      await waitFor(async () => (await redis.hlen(keys.results('ses_p'))) === 2);

      // A fourth result: the bound keeps three, so the one that waited longest goes.
      await publishResult(redis, keys, result('task_y', 'ses_other', 3));
      await waitFor(async () => (await redis.zcard(keys.waitingOrder)) === 3);
      expect((await redis.hkeys(keys.results('ses_p'))).sort()).toEqual([`task_a\n${t + 1}`, `task_b\n${t + 2}`]);
      expect(await redis.hkeys(keys.results('ses_other'))).toEqual([`task_y\n${t + 3}`]);
      await caughtUp(backend);
      await caughtUp(backend);
      expect(tracker.takeDropped('ses_other')).toEqual({ count: 1, taskIds: ['task_x'] });
      expect(tracker.takeUndelivered('ses_p').map((r) => r.taskId)).toEqual(['task_a', 'task_b']);
    } finally {
      await tracker.close();
    }
  });
});
