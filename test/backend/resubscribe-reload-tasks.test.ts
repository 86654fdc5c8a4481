/**
 * Tasks changed, deleted and cancelled by one instance while another's subscriber connection
 * was down: their messages never reached that instance. Once its hub has the channel again,
 * it reads the task records back from Redis, and serves the cancel Redis marks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { SharedTasks } from '../../src/backend/shared-tasks.js';
import { withHubsDown } from './hubs-down.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('the shared tasks after the subscriber connection dropped', () => {
  let redis: RedisServer | undefined;
  let a: RedisBackend | undefined;
  let b: RedisBackend | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    a = await redisBackend({ url: redis.url, prefix: 'reloadtasks', retentionMs: 60_000 });
    b = await redisBackend({ url: redis.url, prefix: 'reloadtasks', retentionMs: 60_000 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });
  const task = (taskId: string): TaskInfo => ({ taskId, agentName: 'alpha', description: 'd', sessionId: 's1', parentRunId: 'run_1', background: false, state: 'running', startedAt: Date.now() });

  it("learns of a task's end and of a task deleted, and serves a cancel sent meanwhile", async () => {
    const ta = await SharedTasks.create(a!.parts.redis, a!.parts.keys, a!.parts.hub, 60_000, 'inst_a');
    const tb = await SharedTasks.create(b!.parts.redis, b!.parts.keys, b!.parts.hub, 60_000, 'inst_b');
    const cancelled: string[] = [];
    const stopServing = tb.tasks.serve((taskId) => void cancelled.push(taskId), (taskId) => taskId === 'task_b');
    try {
      const [ended, deleted, ofB] = [task('task_ended'), task('task_deleted'), task('task_b')];
      ta.tasks.publish(ended);
      ta.tasks.publish(deleted);
      tb.tasks.publish(ofB);
      await waitFor(() => tb.tasks.get('task_deleted') !== undefined && ta.tasks.get('task_b') !== undefined);
      const admin = a!.parts.redis;
      await withHubsDown(admin, a!.parts.keys.tasksChannel, 2, async () => {
        ta.tasks.publish({ ...ended, state: 'done', endedAt: Date.now(), result: 'fine' });
        await admin.del(a!.parts.keys.task('task_deleted')); // as a conversation's delete does, its message unheard
        expect(ta.tasks.cancel('task_b')).toBe(true);
        await admin.ping(); // after the transactions above, on the same connection
      });
      await waitFor(() => tb.tasks.get('task_ended')?.state === 'done' && tb.tasks.get('task_deleted') === undefined && cancelled.length === 1);
      expect(cancelled).toEqual(['task_b']);
    } finally {
      stopServing();
      ta.stop();
      tb.stop();
    }
  });
});
