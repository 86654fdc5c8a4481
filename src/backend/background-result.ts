import { childEnded } from '../delegation/supervise-child.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { RunEndEvent } from '../events/agent-event.js';
import type { LogEnding } from '../runs/run-types.js';
import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';
import { publishResult } from './shared-results.js';
import { settleRecord } from './settle-record.js';
import type { TaskJob } from './task-job.js';

/**
 * A background task's result as its tracker would record it: by the one rule of an engine's
 * own children (`childEnded`), so a child whose `RunEnd` came before its log's end keeps that
 * answer whatever ended the log (a cancel or a failure that came too late), as in-process.
 */
export function backgroundResult(job: TaskJob, agentName: string, ending: LogEnding, end: RunEndEvent | undefined, startedAt: number): TaskInfo {
  const task = job.spec.task!;
  const base = { taskId: task.taskId, agentName, description: job.description, sessionId: task.rootSessionId, parentRunId: job.parentRunId, background: true, startedAt, endedAt: Date.now() };
  const { outcome, state, metrics } = childEnded(agentName, end, ending.kind === 'cancelled' ? { kind: 'cancelled', taskId: task.taskId } : ending);
  return { ...base, ...(metrics && { metrics }), state, result: outcome.content };
}

/**
 * Puts a finished background task's result in front of its conversation's next prompt on
 * any engine, and records its end in its task record: both must happen when the engine
 * that launched the task is gone (see `settleRecord` for when it is alive). A cancelled
 * one's only when the record was still running: a live engine that cancelled it recorded it
 * before telling the worker, and delivers that result itself.
 */
export async function deliverResult(redis: Redis, keys: RedisKeys, info: TaskInfo, queuedAt: number | undefined, retentionMs: number): Promise<void> {
  if (info.state === 'cancelled') {
    if (await settleRecord(redis, keys, info, queuedAt, retentionMs)) await publishResult(redis, keys, info);
    return;
  }
  await Promise.all([publishResult(redis, keys, info), settleRecord(redis, keys, info, queuedAt, retentionMs)]);
}
