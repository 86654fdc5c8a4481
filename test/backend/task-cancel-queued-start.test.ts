/**
 * A cancel of a task another engine holds queued in a `multitask` pool: the canceller's
 * copy names the queued launch, but the owner may have started it meanwhile (a start under a
 * later `startedAt`, `TaskTracker.register`). The owner checked the cancel's marker against
 * its own copy only, so a real cancel sent as the task got its slot cancelled nothing, and
 * `cancelTask` had said true. The owner now also takes the marker of the queued launch its
 * running one came from.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelHub } from '../../src/backend/channel-hub.js';
import { RedisKeys } from '../../src/backend/redis-keys.js';
import { SharedTasks } from '../../src/backend/shared-tasks.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('a cancel of a task queued on another engine', () => {
  let server: RedisServer;
  beforeAll(async () => void (server = await startRedis()));
  afterAll(async () => server?.stop());

  async function engineTasks(prefix: string, instanceId: string) {
    const redis = new Redis(server.url);
    const hub = new ChannelHub(new Redis(server.url));
    const { tasks, stop } = await SharedTasks.create(redis, new RedisKeys(prefix), hub, 60_000, instanceId);
    return { tasks, redis, close: () => (stop(), hub.close(), redis.disconnect()) };
  }

  const base = { taskId: 'task_q', agentName: 'explorer', description: 'd', sessionId: 's', parentRunId: 'run_1', background: false } as const;

  it('cancels it when it started as the cancel was sent', async () => {
    const owner = await engineTasks('q1', 'owner');
    const other = await engineTasks('q1', 'other');
    const cancelled: string[] = [];
    owner.tasks.serve((id) => cancelled.push(id));
    try {
      const queuedAt = Date.now() - 1000;
      owner.tasks.publish({ ...base, state: 'queued', startedAt: queuedAt } as TaskInfo);
      await waitFor(() => other.tasks.get('task_q')?.state === 'queued');
      // The owner starts it (its copy at once), and the other engine cancels on its queued copy.
      owner.tasks.publish({ ...base, state: 'running', startedAt: queuedAt + 500 } as TaskInfo);
      expect(other.tasks.cancel('task_q')).toBe(true);
      await waitFor(() => cancelled.length > 0);
      expect(cancelled).toEqual(['task_q']);
    } finally {
      owner.close();
      other.close();
    }
  });

  // What the mend must not take: the marker of a launch that settled before this one started.
  it('a marker of an earlier, settled launch cancels no later one', async () => {
    const owner = await engineTasks('q2', 'owner');
    const cancelled: string[] = [];
    owner.tasks.serve((id) => cancelled.push(id));
    try {
      const first = Date.now() - 1000;
      owner.tasks.publish({ ...base, state: 'running', startedAt: first } as TaskInfo);
      await owner.redis.set('q2:task-cancelled:task_q', String(first));
      owner.tasks.publish({ ...base, state: 'cancelled', startedAt: first, endedAt: first + 1 } as TaskInfo);
      owner.tasks.publish({ ...base, state: 'running', startedAt: first + 500 } as TaskInfo);
      await owner.redis.publish('q2:tasks-events', JSON.stringify({ op: 'cancel', taskId: 'task_q' }));
      await owner.redis.ping();
      await new Promise((r) => setTimeout(r, 50));
      expect(cancelled).toEqual([]);
    } finally {
      owner.close();
    }
  });
});
