import { Subject } from 'rxjs';
import type { RunMetrics } from '../events/run-metrics.js';
import { TaskEventLog } from './task-event-log.js';
import { FinishedTasks, startEntry, type TaskEntry } from './task-entry.js';
import { isUnsettled, type TaskInfo, type TaskState } from './task-info.js';
import { TaskRefusedError } from './task-refused-error.js';
import type { TaskTrackerLimits } from './task-tracker-limits.js';
import { TrackedBackground } from './tracked-background.js';

/**
 * The state a `TaskTracker` keeps and how each change moves it: the entries by id, the
 * finished ones bounded, the background ones counted and their results kept, every snapshot
 * published on `subject`. Apart from the tracker, whose methods are the public contract,
 * so that each change is read in one place.
 */
export class TaskTable {
  readonly entries = new Map<string, TaskEntry>();
  /** The finished tasks, bounded ({@link TaskTrackerLimits}). */
  private readonly finished: FinishedTasks;
  /** The background tasks running, and the results waiting for their conversation. */
  readonly background: TrackedBackground;
  readonly subject = new Subject<TaskInfo>();
  /**
   * Resolves once a task's run here has given its session up (see `TaskTracker.awaitReleases`);
   * by default at once.
   */
  released: (taskId: string) => Promise<void> = () => Promise.resolve();

  constructor(private readonly limits: Required<TaskTrackerLimits>) {
    this.background = new TrackedBackground(limits);
    this.finished = new FinishedTasks(this.entries, limits, (id) => this.background.undelivered.has(id));
  }

  /**
   * Registers a task starting or queued (see `TaskTracker.start` and `queue`).
   *
   * @throws TaskRefusedError when a task with that id is running or queued, unless it is the
   * queued one now getting its slot.
   */
  register(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void, state: 'queued' | 'running'): void {
    const earlier = this.entries.get(info.taskId);
    const waited = earlier?.info.state === 'queued' && state === 'running';
    if (!waited && earlier && isUnsettled(earlier.info)) {
      throw new TaskRefusedError(`task "${info.taskId}" is still running; wait for its result before resuming it`);
    }
    const entry = startEntry(info, cancel, state, earlier, waited);
    if (info.background) {
      entry.log = new TaskEventLog(this.limits.runningEventBytes);
      // A queued task getting its slot was counted when it was queued (and orphaned then, if so):
      // counted again, it would stay counted after it settles, which uncounts it once.
      if (waited) entry.orphaned = earlier?.orphaned;
      else this.background.started(entry);
    }
    if (earlier) this.finished.restart(info.taskId, earlier);
    this.entries.set(info.taskId, entry);
    this.subject.next(entry.info);
  }

  /** Settles a task (running or queued); later calls for the same task are ignored. */
  finish(taskId: string, state: Exclude<TaskState, 'running' | 'queued'>, result: string, metrics?: RunMetrics): void {
    const entry = this.entries.get(taskId);
    if (!entry || !isUnsettled(entry.info)) return;
    entry.info = Object.assign({}, entry.info, { state, endedAt: Date.now(), result }, metrics && { metrics });
    entry.cancel = undefined;
    entry.log?.compact();
    this.background.finished(entry);
    entry.resolve();
    this.finished.add(taskId, entry);
    this.subject.next(entry.info);
  }

  /** Cancels a running task, or takes a queued one out of its queue; false when no such task has that id. */
  cancel(taskId: string): boolean {
    const entry = this.entries.get(taskId);
    if (!entry?.cancel) return false;
    entry.cancel();
    return true;
  }

  /**
   * Cancels the unsettled tasks `filter` picks and waits until they settle and the runs here
   * of every task it picks, settled ones too, have given their sessions up (see
   * `TaskTracker.cancelAll`).
   */
  async cancelAll(filter: { backgroundOnly?: boolean; sessionId?: string }): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const [id, entry] of [...this.entries]) {
      if (filter.backgroundOnly && !entry.info.background) continue;
      if (filter.sessionId !== undefined && entry.info.sessionId !== filter.sessionId) continue;
      // A cancelled task settles at once, but its run closes its turn in its session after:
      // a caller that deletes the conversation, or ends the process, waits for that too. So
      // for a task settled before this call (cancelled on its own just before): its run may
      // still be closing. `released` answers at once for a session no run holds.
      waits.push(entry.settled.then(() => this.released(id)));
      if (isUnsettled(entry.info)) this.cancel(id);
    }
    await Promise.all(waits);
  }
}
