/**
 * A task's cancel from another engine travels on the tasks channel with its marker in Redis
 * (`<prefix>:task-cancelled:<task>`), which an engine reads back before it cancels. Every
 * engine serving cancels (each engine's tracker) used to read it, one `GET` each per cancel,
 * and hand it to a tracker that does not run the task. Now an engine whose tracker says it does
 * not run the task (`runsHere`, its own knowledge, never the channel's) reads nothing.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelHub } from '../../src/backend/channel-hub.js';
import { RedisKeys } from '../../src/backend/redis-keys.js';
import { SharedTasks } from '../../src/backend/shared-tasks.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)("a task's cancel from another engine", () => {
  let server: RedisServer;
  beforeAll(async () => void (server = await startRedis()));
  afterAll(async () => server?.stop());

  /** An engine's shared tasks whose tracker runs `runs`, recording the cancels handed to it. */
  async function engineTasks(instanceId: string, runs: readonly string[]) {
    const redis = new Redis(server.url);
    const hub = new ChannelHub(new Redis(server.url));
    const { tasks, stop } = await SharedTasks.create(redis, new RedisKeys('own'), hub, 60_000, instanceId);
    const cancelled: string[] = [];
    tasks.serve((id) => cancelled.push(id), (id) => runs.includes(id));
    return { tasks, redis, cancelled, close: () => (stop(), hub.close(), redis.disconnect()) };
  }

  it('is read back, and served, by the engine running the task only', async () => {
    const engines = [await engineTasks('running', ['task_o']), await engineTasks('canceller', []), await engineTasks('bystander', [])];
    const [running, canceller, bystander] = engines as [(typeof engines)[0], (typeof engines)[0], (typeof engines)[0]];
    const monitor = new Redis(server.url);
    const reads: string[] = [];
    let fenced = false;
    try {
      const info: TaskInfo = { taskId: 'task_o', agentName: 'explorer', description: 'd', sessionId: 's', parentRunId: 'run_1', background: false, state: 'running', startedAt: Date.now() };
      running.tasks.publish(info);
      await waitFor(() => canceller.tasks.get('task_o') !== undefined && bystander.tasks.get('task_o') !== undefined);
      const watching = await monitor.monitor();
      watching.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'get' && args[1] === 'own:task-cancelled:task_o') reads.push(args[1]);
        if (args[0]?.toLowerCase() === 'echo' && args[1] === 'fence') fenced = true;
      });
      expect(canceller.tasks.cancel('task_o')).toBe(true);
      await waitFor(() => running.cancelled.length === 1);
      // A barrier: a put the canceller sends after its cancel, heard by every engine, then a
      // PING on each engine's connection (answered after any read sent before it), then a
      // fence the monitor shows after every command Redis ran before it.
      const heard = engines.map((e) => new Promise<void>((resolve) => e.tasks.watch((t) => void (t.taskId === 'task_mark' && resolve()))));
      canceller.tasks.publish({ ...info, taskId: 'task_mark' });
      await Promise.all(heard);
      for (const e of engines) await e.redis.ping();
      await running.redis.echo('fence');
      await waitFor(() => fenced);
      expect(running.cancelled).toEqual(['task_o']);
      expect(canceller.cancelled).toEqual([]);
      expect(bystander.cancelled).toEqual([]);
      expect(reads).toHaveLength(1);
      watching.disconnect();
    } finally {
      monitor.disconnect();
      for (const e of engines) e.close();
    }
  });
});
