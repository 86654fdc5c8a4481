import { RunningBackground } from './running-background.js';
import type { TaskEntry } from './task-entry.js';
import type { TaskInfo } from './task-info.js';
import type { TaskTrackerLimits } from './task-tracker-limits.js';
import { UndeliveredResults } from './undelivered-results.js';

/**
 * A `TaskTracker`'s background tasks: those running, counted by conversation (and by forgotten
 * conversation), and the finished results waiting for their conversation's next prompt. Kept
 * together because a forgotten conversation changes both: its waiting results are dropped,
 * and its running tasks are orphaned, so their results are never kept.
 */
export class TrackedBackground {
  private readonly running = new RunningBackground();
  /**
   * Finished background results not yet put in front of a prompt of their session, oldest
   * first. Snapshots, not entries: resuming a task restarts its entry, and its earlier
   * result must still arrive.
   */
  readonly undelivered: UndeliveredResults<TaskInfo>;

  constructor(limits: Required<TaskTrackerLimits>) {
    this.undelivered = new UndeliveredResults(limits.undeliveredResults, limits.undeliveredChars);
  }

  /** Counts a background task that starts (or starts again); orphaned at once while its conversation is forgotten with some still running. */
  started(entry: TaskEntry): void {
    this.running.add(entry.info.taskId, entry.info.sessionId);
    if (this.running.isForgotten(entry.info.sessionId)) this.orphan(entry);
  }

  /** Uncounts a task that settled (a foreground one was never counted); its result waits for its conversation unless orphaned. */
  finished(entry: TaskEntry): void {
    this.running.remove(entry.info.taskId, entry.info.sessionId);
    if (entry.orphaned) this.running.countOrphan(entry.info.sessionId, -1);
    else if (entry.info.background) this.undelivered.push(entry.info);
  }

  /** Drops a forgotten conversation's waiting results, and orphans its running tasks (`entries`: the tracker's). */
  forget(sessionId: string, entries: ReadonlyMap<string, TaskEntry>): void {
    this.undelivered.forget(sessionId);
    for (const id of this.running.taskIds) {
      const entry = entries.get(id);
      if (entry?.info.sessionId === sessionId && !entry.orphaned) this.orphan(entry);
    }
  }

  /** How many background tasks of a conversation are running now, in O(1). */
  runningOf(sessionId: string): number {
    return this.running.of(sessionId);
  }

  /** Marks a running background task of a forgotten conversation: its result is not kept for delivery. */
  private orphan(entry: TaskEntry): void {
    entry.orphaned = true;
    this.running.countOrphan(entry.info.sessionId, 1);
  }
}
