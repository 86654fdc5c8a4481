/**
 * A background task outlives the engine that launched it: its worker goes on, records its
 * end and delivers its result. What that engine did besides (relaying cancels to the worker,
 * watching the worker's heartbeat) is done here without it:
 *
 * - `cancelTask` on another engine publishes the task's id on the cancel channel (and a
 *   marker, for a job not taken yet); the worker obeys it once the job's launcher is gone
 *   (a live one relays the cancel itself, as before, so there is one cancel and one record).
 * - a worker that starts a background job marks which job runs the task's launch, so the
 *   dead-owner sweep can tell a task whose worker died (BullMQ's lock on the job lapsed)
 *   from one still waiting in the queue, and records it failed, once, by compare-and-swap.
 *
 * BullMQ knows workers and jobs, not the engines waiting for them: with `maxStalledCount: 0`
 * its stalled-job check fails a dead worker's job (never runs it twice), but only while some
 * other worker lives to run that check, and it tells nobody's conversation. So the record and
 * the conversation are settled here, with BullMQ's job lock as the worker's heartbeat.
 *
 * @module
 */
import { failedTask } from '../delegation/task-result-format.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { BackendParts } from './backend-parts.js';
import { publishResult } from './shared-results.js';
import { settleRecord } from './settle-record.js';
import { readCancelMark, readJobMark, readStoredTask } from './stored-task.js';
import type { TaskJob } from './task-job.js';
import { lapseMs } from './worker-lapse.js';

/** How often a worker looks again whether a job's launcher is gone, after a cancel by task id. */
const RECHECK_MS = 25;

/** As long as a running task record lives: the dead-owner sweep may need the mark until then. */
const MARK_TTL_MS = 24 * 60 * 60_000;

/**
 * Marks, as a worker starts a background job, that this job runs the task's launch (for the
 * dead-owner sweep: `failStoppedBackground`). BullMQ took the job's lock before its processor
 * runs, so while the worker lives the sweep never sees the mark without the lock.
 *
 * @internal
 */
export async function markBackgroundJob(parts: BackendParts, job: TaskJob): Promise<void> {
  const task = job.spec.task;
  if (!task?.background || job.queuedAt === undefined) return;
  const mark = JSON.stringify({ logId: job.logId, queuedAt: job.queuedAt });
  await parts.redis.set(parts.keys.taskJob(task.taskId), mark, 'PX', MARK_TTL_MS).catch(() => undefined);
}

/**
 * Whether nobody listens for the job's approvals any more: its launcher (which listens from
 * before the job is queued until it stops following the task) is gone with its engine.
 * Undefined when Redis cannot say.
 *
 * @internal
 */
export async function launcherGone(parts: BackendParts, logId: string): Promise<boolean | undefined> {
  const reply = (await parts.redis.pubsub('NUMSUB', parts.keys.approvals(logId)).catch(() => undefined)) as [string, number] | undefined;
  return reply ? Number(reply[1]) === 0 : undefined;
}

/**
 * Acts on a cancel of a running background job sent by task id: at once when its launcher is
 * gone; while it is there, it relays the cancel itself (the job stops and `running` turns
 * false within milliseconds), so the worker only looks again, until the launcher is gone (a
 * killed engine's subscription lasts until Redis sees its socket close) or a stall interval
 * passed without the cancel being relayed: then the worker stops the job anyway.
 *
 * @internal
 */
export function obeyCancel(parts: BackendParts, logId: string, running: () => boolean, stop: () => void): void {
  const until = Date.now() + parts.stallMs;
  const look = async (): Promise<void> => {
    if (!running()) return;
    if ((await launcherGone(parts, logId)) || Date.now() >= until) return stop();
    setTimeout(() => void look(), RECHECK_MS).unref();
  };
  void look();
}

/**
 * Whether a background job about to start was cancelled (by task id, on an engine that does
 * not run it) while it waited: the marker names the launch cancelled (its record's start);
 * it applies when the task's record is still of that launch, this job is of it (queued after
 * it started), and its launcher is gone or has settled the record already.
 *
 * @internal
 */
export async function cancelledWhileQueued(parts: BackendParts, job: TaskJob): Promise<boolean> {
  const task = job.spec.task;
  if (!task?.background || job.queuedAt === undefined) return false;
  const { redis, keys } = parts;
  // The record only when there is a marker (a cancel is rare): one read per job otherwise.
  const marked = await readCancelMark(redis, keys, task.taskId, 'no cancel is applied to its job, which runs');
  if (marked === undefined) return false;
  const record = (await readStoredTask(redis, keys, task.taskId, 'the cancel marked for the task is not applied to its job, which runs'))?.info;
  if (!record || String(record.startedAt) !== marked || record.startedAt > job.queuedAt) return false;
  return record.state !== 'running' || (await launcherGone(parts, job.logId)) === true;
}

/**
 * For the dead-owner sweep: records a running background task of a dead engine as failed
 * when the worker that started it holds BullMQ's lock on its job no more (it was killed
 * too: a live worker renews the lock, an ended job settled its record first), for every engine,
 * and puts the failure in front of its conversation, as its engine would have. Nothing is
 * done for a task not started on a worker yet (still queued: a worker will run it), nor for
 * one whose worker beats. Only the engine whose compare-and-swap settles the record does the
 * rest, so it happens once. Resolves whether it did.
 *
 * @internal
 */
export async function failStoppedBackground(parts: BackendParts, info: TaskInfo, retentionMs: number): Promise<boolean> {
  const { redis, keys, stallMs, eventLog } = parts;
  const mark = await readJobMark(redis, keys, info.taskId, 'whether the worker running the task stopped is not known, so it is not recorded failed');
  // No mark of this launch: its job has not started on a worker (or its mark is an earlier launch's).
  if (!mark || mark.queuedAt < info.startedAt) return false;
  const { logId, queuedAt } = mark;
  if ((await redis.exists(keys.jobLock(logId))) === 1) return false;
  const message = `the worker running it stopped: no heartbeat for ${lapseMs(stallMs)} ms (it was killed, or lost its connection to Redis), and the app instance that launched it is gone`;
  const final: TaskInfo = { ...info, state: 'failed', endedAt: Date.now(), result: failedTask(`the ${info.agentName} task failed: ${message}`).content };
  if (!(await settleRecord(redis, keys, final, queuedAt, retentionMs))) return false;
  await publishResult(redis, keys, final).catch(() => undefined);
  // Nobody will end its log (its worker is dead): ended here, it expires with the retention.
  await eventLog.end(logId, { kind: 'failed', message }, retentionMs).catch(() => undefined);
  return true;
}
