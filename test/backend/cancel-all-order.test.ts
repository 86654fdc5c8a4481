/**
 * `engine.tasks.cancelAll({ sessionId })` for a conversation whose tasks another engine runs
 * sends that engine the cancels of its queued tasks before those of its running ones
 * (`cancelElsewhere`): the engine serves them in order, and a running task's cancel frees a
 * pool slot that would otherwise start a queued task (a child run, a model request) only to
 * cancel it a moment later. Watched where the order shows, on the tasks channel of a real
 * Redis, as the engine holding the tasks hears it; that engine is played on the wire (its
 * records announced, each cancel answered by the task's cancelled record), so nothing races.
 */
import { describe, expect, it } from 'vitest';
import { putTaskMessage } from '../../src/backend/task-messages.js';
import type { TaskInfo, TaskState } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

/** Nothing here waits for a heartbeat to lapse: a cancel not answered would hang until the test's timeout. */
const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('cancelAll of a conversation another engine runs', () => {
  const scale = useScaleKits();

  it('sends the cancels of its queued tasks before those of its running ones', async () => {
    const k = await scale.kit(STALL_MS);
    const asking = await k.backend();
    const holding = await k.backend();
    const { redis, keys, hub } = holding.parts;
    const owner = holding.runs.instanceId;
    const t = Date.now();
    const task = (taskId: string, state: TaskState): TaskInfo => ({ taskId, agentName: 'explorer', description: taskId, sessionId: 'ses_order', parentRunId: 'run_order', background: false, state, startedAt: t });
    // Announced running first: a copy lists tasks in the order it heard of them, so only the
    // queued-first order puts the queued ones first (a list order, or its reverse, fails).
    const tasks = [task('task_run_1', 'running'), task('task_wait_1', 'queued'), task('task_run_2', 'running'), task('task_wait_2', 'queued')];
    const heard: string[] = [];
    const stop = await hub.listen(keys.tasksChannel, (text) => {
      const message = JSON.parse(text) as { op: string; taskId: string };
      if (message.op !== 'cancel') return;
      heard.push(message.taskId);
      const cancelled: TaskInfo = { ...tasks.find((x) => x.taskId === message.taskId)!, state: 'cancelled', endedAt: Date.now(), result: 'ERROR: cancelled' };
      void redis.publish(keys.tasksChannel, putTaskMessage(cancelled, owner));
    });
    const tracker = asking.createTracker();
    try {
      for (const info of tasks) await redis.publish(keys.tasksChannel, putTaskMessage(info, owner));
      await waitFor(() => tasks.every((x) => tracker.get(x.taskId)?.state === x.state));

      await tracker.cancelAll({ sessionId: 'ses_order' });

      expect(heard).toEqual(['task_wait_1', 'task_wait_2', 'task_run_1', 'task_run_2']);
      // It returned once every one of them was recorded settled.
      expect(tasks.map((x) => tracker.get(x.taskId)?.state)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    } finally {
      stop();
      await tracker.close();
    }
  });
});
