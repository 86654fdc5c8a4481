import type { RunMetrics } from '../events/run-metrics.js';

/** Where a task is in its life: `queued` while a `multitask` child waits for a slot of its pool. */
export type TaskState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** A snapshot of one delegated task. */
export interface TaskInfo {
  /** The task's id, also its child session's id; kept when the task is resumed. */
  readonly taskId: string;
  /** The agent running the task. */
  readonly agentName: string;
  /** The task's short label, as the parent wrote it. */
  readonly description: string;
  /** The conversation (main session) that started it; only it may resume the task. */
  readonly sessionId: string;
  /** The run that called `task` / `multitask`. */
  readonly parentRunId: string;
  /** True for a `task` call with `background: true`: it runs detached from its parent's stream. */
  readonly background: boolean;
  /** Where the task is in its life: `queued` while it waits for a pool slot, then `running` until it settles. */
  readonly state: TaskState;
  /**
   * When the task (or its latest resume) started, in epoch milliseconds; each run of a task
   * starts later than the one before, so it also names the run (and its result).
   */
  readonly startedAt: number;
  /** When it settled, in epoch milliseconds; absent while running. */
  readonly endedAt?: number;
  /** The content of its result once it ended (a failure's starts with `ERROR: `). */
  readonly result?: string;
  /** The child run's usage and timing, when it reached its `RunEnd`; absent while running or when it was cut short. */
  readonly metrics?: RunMetrics;
}

/** Whether a task has not settled yet: running, or queued for a slot of its pool. */
export function isUnsettled(info: TaskInfo): boolean {
  return info.state === 'running' || info.state === 'queued';
}
