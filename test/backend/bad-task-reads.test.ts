/**
 * The single reads of one task's keys that a worker or the dead-owner sweep acts on:
 * `settleRecord` (a worker records the end of a background task), `cancelledWhileQueued` (a
 * worker checks a cancel marked while the job waited) and `failStoppedBackground` (the sweep
 * reads which job runs a dead engine's task). What is there that no engine or worker writes
 * (another shape, another type of key, another task's record) used to be passed over without
 * a word, and a key of another type threw `WRONGTYPE` out of them. Now it is read as nothing,
 * with one warning per key naming it and what was not done, nothing thrown, the key left as
 * it is; good records are still read and acted on.
 */
import { describe, expect, it } from 'vitest';
import { cancelledWhileQueued, failStoppedBackground } from '../../src/backend/orphan-background.js';
import { settleRecord } from '../../src/backend/settle-record.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import { parseOwnedTask } from '../../src/backend/task-record.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;

/** A running background task's snapshot. */
const running = (taskId: string, startedAt: number): TaskInfo => ({ taskId, agentName: 'explorer', description: 'd', sessionId: 'ses_r', parentRunId: 'run_r', background: true, state: 'running', startedAt });

/** The part of a queued background job these reads look at. */
const jobOf = (taskId: string, queuedAt: number): TaskJob => ({ logId: `log_${taskId}`, queuedAt, spec: { task: { taskId, background: true } } }) as unknown as TaskJob;

describe.skipIf(!HAS_REDIS)('bad data under one task\'s keys', () => {
  const scale = useScaleKits();

  it('settleRecord settles none of it, with one warning per key; a good record still settles', async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const t = Date.now() - 10_000;
    const done = (taskId: string): TaskInfo => ({ ...running(taskId, t), state: 'done', endedAt: t + 500, result: 'answer' });
    const victim = JSON.stringify({ ...running('task_victim', t), owner: 'instance_x' });
    await redis.set(keys.task('task_shape'), JSON.stringify({ ...running('task_shape', t), result: 'forged' }));
    await redis.hset(keys.task('task_type'), 'state', 'running');
    await redis.set(keys.task('task_other'), victim); // another task's record under this key
    await redis.set(keys.task('task_victim'), victim);
    await redis.set(keys.task('task_fine'), JSON.stringify({ ...running('task_fine', t), owner: 'instance_x' }));
    const warnings = badDataWarnings();
    try {
      for (const taskId of ['task_shape', 'task_type', 'task_other', 'task_shape', 'task_type']) expect(await settleRecord(redis, keys, done(taskId), t + 10, 60_000), taskId).toBe(false);
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(3);
      const [shape, type, other] = warnings.messages as [string, string, string];
      expect(shape).toBe(`Redis key ${keys.task('task_shape')} holds no task record an engine writes (a running record has no field "result"): the end the worker that ran the task reached is not recorded there. Left as it is: delete it, or give the backend a prefix of its own.`);
      expect(type).toContain(`Redis key ${keys.task('task_type')} holds no task record an engine writes (the key is not a string)`);
      expect(other).toContain(`Redis key ${keys.task('task_other')} holds no task record an engine writes (it names task "task_victim", not the task of its key)`);
      // Left as they were; the victim was not settled through another key.
      expect(await redis.get(keys.task('task_other'))).toBe(victim);
      expect(await redis.get(keys.task('task_victim'))).toBe(victim);
      expect(await redis.type(keys.task('task_type'))).toBe('hash');

      expect(await settleRecord(redis, keys, done('task_fine'), t + 10, 60_000)).toBe(true);
      expect(parseOwnedTask(await redis.get(keys.task('task_fine')))?.info.state).toBe('done');
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(3);
    } finally {
      warnings.stop();
    }
  });

  it('cancelledWhileQueued applies no cancel over a bad record, with one warning; over a good one it does', async () => {
    const k = await scale.kit(STALL_MS);
    const parts = (await k.backend()).parts;
    const { redis, keys } = parts;
    const t = Date.now() - 10_000;
    for (const taskId of ['task_bad', 'task_type', 'task_good']) await redis.set(keys.taskCancelled(taskId), String(t));
    await redis.set(keys.task('task_bad'), '{"state":"cancelled"}');
    await redis.sadd(keys.task('task_type'), 'x');
    await redis.set(keys.task('task_good'), JSON.stringify({ ...running('task_good', t), owner: 'instance_x' }));
    const warnings = badDataWarnings();
    try {
      expect(await cancelledWhileQueued(parts, jobOf('task_bad', t + 1))).toBe(false);
      expect(await cancelledWhileQueued(parts, jobOf('task_type', t + 1))).toBe(false);
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(2);
      expect(warnings.messages[0]).toBe(`Redis key ${keys.task('task_bad')} holds no task record an engine writes (a cancelled record needs taskId (a non-empty string of at most 1024 characters)): the cancel marked for the task is not applied to its job, which runs. Left as it is: delete it, or give the backend a prefix of its own.`);
      expect(warnings.messages[1]).toContain(`Redis key ${keys.task('task_type')} holds no task record an engine writes (the key is not a string)`);
      // Its launcher is gone (nobody listens for its approvals): the marked cancel applies.
      expect(await cancelledWhileQueued(parts, jobOf('task_good', t + 1))).toBe(true);
    } finally {
      warnings.stop();
    }
  });

  it('failStoppedBackground fails no task over a bad job mark, with one warning; over a good one it does', async () => {
    const k = await scale.kit(STALL_MS);
    const parts = (await k.backend()).parts;
    const { redis, keys } = parts;
    const t = Date.now() - 10_000;
    for (const taskId of ['task_mark', 'task_type', 'task_good']) await redis.set(keys.task(taskId), JSON.stringify({ ...running(taskId, t), owner: 'instance_gone' }));
    await redis.set(keys.taskJob('task_mark'), JSON.stringify({ logId: 7, queuedAt: t + 1 }));
    await redis.rpush(keys.taskJob('task_type'), 'x');
    await redis.set(keys.taskJob('task_good'), JSON.stringify({ logId: 'log_task_good', queuedAt: t + 1 }));
    const warnings = badDataWarnings();
    try {
      expect(await failStoppedBackground(parts, running('task_mark', t), 60_000)).toBe(false);
      expect(await failStoppedBackground(parts, running('task_type', t), 60_000)).toBe(false);
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(2);
      expect(warnings.messages[0]).toBe(`Redis key ${keys.taskJob('task_mark')} holds no job mark a worker writes (it is not a JSON object with a string "logId" and a whole number "queuedAt"): whether the worker running the task stopped is not known, so it is not recorded failed. Left as it is: delete it, or give the backend a prefix of its own.`);
      expect(warnings.messages[1]).toContain(`Redis key ${keys.taskJob('task_type')} holds no job mark a worker writes (the key is not a string)`);
      for (const taskId of ['task_mark', 'task_type']) expect(parseOwnedTask(await redis.get(keys.task(taskId)))?.info.state).toBe('running');
      // No lock on its job: its worker died too, so it is recorded failed.
      expect(await failStoppedBackground(parts, running('task_good', t), 60_000)).toBe(true);
      expect(parseOwnedTask(await redis.get(keys.task('task_good')))?.info.state).toBe('failed');
    } finally {
      warnings.stop();
    }
  });
});
