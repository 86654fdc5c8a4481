/**
 * A cancel marker (`<prefix>:task-cancelled:<task>`, the start of the launch a cancel by task
 * id names) that no engine writes: a key of another type threw `WRONGTYPE` out of
 * `cancelledWhileQueued`, failing the job that was about to run. Now the worker reads it as
 * no marker, with one warning per key naming it and what was not done, and the job runs as it
 * would without the key (a planted key must not cancel anything); the key is left as it is.
 * A real marker is still obeyed.
 */
import { describe, expect, it } from 'vitest';
import { cancelledWhileQueued } from '../../src/backend/orphan-background.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;

/** A running background task's record. */
const running = (taskId: string, startedAt: number): TaskInfo => ({ taskId, agentName: 'explorer', description: 'd', sessionId: 'ses_r', parentRunId: 'run_r', background: true, state: 'running', startedAt });

/** The part of a queued background job the check looks at. */
const jobOf = (taskId: string, queuedAt: number): TaskJob => ({ logId: `log_${taskId}`, queuedAt, spec: { task: { taskId, background: true } } }) as unknown as TaskJob;

describe.skipIf(!HAS_REDIS)('cancel markers that no engine writes', () => {
  const scale = useScaleKits();

  it('are read as none, one warning per key, the key left; a real marker still cancels', async () => {
    const k = await scale.kit(STALL_MS);
    const parts = (await k.backend()).parts;
    const { redis, keys } = parts;
    const t = Date.now() - 10_000;
    for (const taskId of ['task_hash', 'task_list', 'task_text', 'task_huge', 'task_good']) await redis.set(keys.task(taskId), JSON.stringify({ ...running(taskId, t), owner: 'instance_gone' }));
    await redis.hset(keys.taskCancelled('task_hash'), 'startedAt', String(t));
    await redis.rpush(keys.taskCancelled('task_list'), String(t));
    await redis.set(keys.taskCancelled('task_text'), `${t}\u001b[2J`);
    await redis.set(keys.taskCancelled('task_huge'), '9'.repeat(1_000_000));
    await redis.set(keys.taskCancelled('task_good'), String(t));
    const warnings = badDataWarnings();
    try {
      for (const taskId of ['task_hash', 'task_list', 'task_text', 'task_huge', 'task_hash']) expect(await cancelledWhileQueued(parts, jobOf(taskId, t + 1)), taskId).toBe(false);
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(4);
      expect(warnings.messages[0]).toBe(`Redis key ${keys.taskCancelled('task_hash')} holds no cancel marker an engine writes (the key is not a string): no cancel is applied to its job, which runs. Left as it is: delete it, or give the backend a prefix of its own.`);
      expect(warnings.messages[1]).toContain(`${keys.taskCancelled('task_list')} holds no cancel marker an engine writes (the key is not a string)`);
      for (const said of warnings.messages.slice(2)) expect(said).toContain('(it is not the start of a launch, epoch milliseconds)');
      expect(await redis.type(keys.taskCancelled('task_hash'))).toBe('hash');
      // Its launcher is gone (nobody listens for its approvals): the marked cancel applies.
      expect(await cancelledWhileQueued(parts, jobOf('task_good', t + 1))).toBe(true);
    } finally {
      warnings.stop();
    }
  });
});
