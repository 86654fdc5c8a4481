/**
 * The keys and channels of delegated tasks: their shared records, their jobs on BullMQ's
 * queue and the workers running them, their cancels and approvals, and their token budgets.
 *
 * @module
 */
import { RedisRunKeys } from './redis-run-keys.js';

/** The BullMQ queue delegated tasks wait in. */
export const TASK_QUEUE = 'tasks';

/** The names of a backend's task keys (with those of {@link RedisRunKeys}). */
export class RedisTaskKeys extends RedisRunKeys {
  /** Where cancels of remote tasks travel to the workers (message: the job id). */
  get cancelChannel(): string {
    return `${this.prefix}:task-cancel`;
  }

  /** Marks a remote task cancelled, for a worker that picks it up after the cancel was published. */
  cancelled(jobId: string): string {
    return `${this.prefix}:cancelled:${jobId}`;
  }

  /**
   * Marks a background task cancelled on an engine that does not run it (the value: the
   * start of the launch cancelled), for a worker that takes its job after the cancel.
   */
  taskCancelled(taskId: string): string {
    return `${this.prefix}:task-cancelled:${taskId}`;
  }

  /** Which job runs a background task's launch (JSON: its id and when it was queued), set by the worker that starts it. */
  taskJob(taskId: string): string {
    return `${this.prefix}:taskjob:${taskId}`;
  }

  /**
   * BullMQ's lock on a job a worker runs: the worker's BullMQ lock manager renews it every
   * quarter `lockDuration` (the stall interval) while the worker lives, so it is gone a stall
   * interval after the worker died at most; BullMQ deletes it when the job ends. The job's
   * heartbeat, as BullMQ's own Lua scripts name it (`<queue key>:<job id>:lock`).
   */
  jobLock(jobId: string): string {
    return `${this.bull}:${TASK_QUEUE}:${jobId}:lock`;
  }

  /** The live workers: a sorted set of worker ids scored by their last beat (Redis's clock, ms). */
  get workers(): string {
    return `${this.prefix}:workers`;
  }

  /** Where a worker asks the launcher of a job for approvals. */
  approvals(jobId: string): string {
    return `${this.prefix}:approve:${jobId}`;
  }

  /** Where a worker hears the answers to its approval requests. */
  answers(workerId: string): string {
    return `${this.prefix}:answers:${workerId}`;
  }

  /** A task as its engine last published it (JSON). */
  task(taskId: string): string {
    return `${this.prefix}:task:${taskId}`;
  }

  /** Where task changes and cancels travel between engines. */
  get tasksChannel(): string {
    return `${this.prefix}:tasks-events`;
  }

  /** One token budget of a tree's pool (a hash: limit, used, reserved; the root's also last), see redis-budget.ts. */
  budget(id: string): string {
    return `${this.prefix}:budget:${id}`;
  }

  /**
   * The reservations a job's worker holds of its pool until they settle (a hash: reservation
   * id → JSON { tokens, chain }), given back by its engine if the worker dies; see redis-budget-scripts.ts.
   */
  budgetHeld(jobId: string): string {
    return `${this.prefix}:budget-held:${jobId}`;
  }

  /** BullMQ's prefix. */
  get bull(): string {
    return `${this.prefix}:bull`;
  }
}
