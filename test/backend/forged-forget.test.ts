/**
 * A `forget` on the tasks channel (`<prefix>:tasks-events`) or the runs channel
 * (`<prefix>:runs-events`), which anyone with access to the Redis can publish, dropped every
 * engine's copy of the task or run it named until its next update: `tasks.get` and `runs.get`
 * said nothing of a task or run still going, so it could not be attached to, cancelled or
 * answered through another engine. Now a copy is forgotten only once Redis confirms its record
 * gone (a conversation's delete and `runs.forget` take it out before their message), as the
 * channels' other messages are read back.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisSharedRuns } from '../../src/backend/redis-shared-runs.js';
import { SharedTasks } from '../../src/backend/shared-tasks.js';
import { forgetTasksMessage } from '../../src/backend/task-messages.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('a forged forget on the tasks and runs channels', () => {
  const scale = useScaleKits();

  it("keeps every engine's copy of a task whose record Redis still holds; a real forget still drops it", async () => {
    const k = await scale.kit(STALL_MS);
    const [a, b] = [await k.backend(), await k.backend()];
    const { keys } = a.parts;
    const owner = await SharedTasks.create(a.parts.redis, keys, a.parts.hub, 60_000, 'owner');
    const watcher = await SharedTasks.create(b.parts.redis, keys, b.parts.hub, 60_000, 'watcher');
    const attacker = new Redis(scale.redis.url);
    try {
      const info: TaskInfo = { taskId: 'task_f', agentName: 'explorer', description: 'd', sessionId: 'ses_f', parentRunId: 'run_p', background: true, state: 'running', startedAt: Date.now() };
      owner.tasks.publish(info);
      await waitFor(() => watcher.tasks.get('task_f')?.state === 'running');
      await attacker.publish(keys.tasksChannel, forgetTasksMessage(['task_f', 'task_unknown']));
      await caughtUp(b);
      await caughtUp(b);
      expect(watcher.tasks.get('task_f')?.state).toBe('running');
      expect(owner.tasks.get('task_f')?.state).toBe('running');

      // What a conversation's delete sends: the record taken out, then the message, in one transaction.
      await attacker.multi().del(keys.task('task_f')).publish(keys.tasksChannel, forgetTasksMessage(['task_f'])).exec();
      await waitFor(() => watcher.tasks.get('task_f') === undefined);
    } finally {
      attacker.disconnect();
      owner.stop();
      watcher.stop();
    }
  });

  it("keeps every engine's copy of another engine's run whose record Redis still holds; a real forget still drops it", async () => {
    const k = await scale.kit(STALL_MS);
    const [a, b] = [await k.backend(), await k.backend()];
    const { keys } = a.parts;
    const owner = await RedisSharedRuns.create(a.parts.redis, keys, a.parts.hub, 'owner');
    const watcher = await RedisSharedRuns.create(b.parts.redis, keys, b.parts.hub, 'watcher');
    const attacker = new Redis(scale.redis.url);
    try {
      owner.runs.publish({ info: { runId: 'run_f', sessionId: 'ses_f', agentName: 'main', state: 'running', startedAt: Date.now() }, pending: [] });
      await waitFor(() => watcher.runs.get('run_f') !== undefined);
      // Its owner no longer hears the channel (a live one says its record again: forged-run-record.test.ts),
      // as when its instance died: the copies are what the dead-owner sweep fails it from.
      owner.stop();
      await attacker.publish(keys.runsChannel, JSON.stringify({ op: 'forget', runId: 'run_f' }));
      await caughtUp(b);
      await caughtUp(b);
      expect(watcher.runs.get('run_f')?.info.state).toBe('running');
      expect(watcher.runs.runningOfOthers().get('owner')).toEqual(['run_f']);

      owner.runs.forget('run_f');
      await waitFor(() => watcher.runs.get('run_f') === undefined);
    } finally {
      attacker.disconnect();
      owner.stop();
      watcher.stop();
    }
  });
});
