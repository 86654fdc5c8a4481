import type { Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunMetrics } from '../events/run-metrics.js';
import type { TaskInfo, TaskState } from './task-info.js';
import { TaskTable } from './task-table.js';
import { DEFAULT_TASK_TRACKER_LIMITS, type TaskTrackerLimits } from './task-tracker-limits.js';
import type { DroppedResults } from './undelivered-results.js';

// The snapshot types live beside the tracker's parts; importers name them from here, as always.
export type { TaskInfo, TaskState } from './task-info.js';

/**
 * Knows every task of an engine: running ones (so one can be cancelled by id) and the most
 * recent finished ones, bounded in count and bytes ({@link TaskTrackerLimits}), so a
 * long-lived engine does not grow. Every change is published on `changes`.
 *
 * @example
 * ```ts
 * engine.tasks.changes.subscribe((t) => console.log(t.taskId, t.state));
 * ```
 */
export class TaskTracker {
  /** The entries, finished and background tasks, and how each change moves them (`task-table.ts`). */
  private readonly table: TaskTable;
  private isClosed = false;
  /**
   * Every task snapshot as it changes (start, then end). Completes when {@link TaskTracker.close}
   * has settled the background tasks, after their last snapshots; changes after that (a
   * foreground task of a run still going) are not published.
   */
  readonly changes: Observable<TaskInfo>;

  constructor(limits: TaskTrackerLimits = {}) {
    this.table = new TaskTable({ ...DEFAULT_TASK_TRACKER_LIMITS, ...limits });
    this.changes = this.table.subject.asObservable();
  }

  /**
   * Registers a starting task; `cancel` stops it and settles its result as cancelled.
   *
   * @throws TaskRefusedError when a task with that id is running: two runs of one task would write
   * into one child session at once. Checked here, synchronously, so two resumes racing
   * through their asynchronous checks cannot both start.
   */
  start(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void): void {
    this.table.register(info, cancel, 'running');
  }

  /**
   * Registers a task that waits for a slot of its `multitask` pool (state `queued`);
   * `cancel` takes it out of the queue and settles it as cancelled. {@link TaskTracker.start}
   * moves it to `running` when it gets its slot.
   *
   * @throws TaskRefusedError when a task with that id is running or queued.
   */
  queue(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void): void {
    this.table.register(info, cancel, 'queued');
  }

  /** Records an event of a task whose log is kept. */
  log(taskId: string, event: AgentEvent): void {
    this.table.entries.get(taskId)?.log?.push(event);
  }

  /** Settles a task (running or queued); later calls for the same task are ignored. */
  finish(taskId: string, state: Exclude<TaskState, 'running' | 'queued'>, result: string, metrics?: RunMetrics): void {
    this.table.finish(taskId, state, result, metrics);
  }

  /**
   * Says that a conversation will never run again (a run without a `sessionId` has ended):
   * its undelivered background results are dropped, and so are those of its tasks still
   * running when they finish, and of the background tasks those start meanwhile (they stay
   * readable through `get` and `whenSettled`).
   */
  forgetSession(sessionId: string): void {
    this.table.background.forget(sessionId, this.table.entries);
  }

  /** How many background tasks of a conversation are running in this engine now (in O(1): the runner asks at every start). */
  runningBackgroundOf(sessionId: string): number {
    return this.table.background.runningOf(sessionId);
  }

  /** Cancels a running task, or takes a queued one out of its queue. Returns false when no such task has that id. */
  cancel(taskId: string): boolean {
    return this.table.cancel(taskId);
  }

  /** The task's latest snapshot; `undefined` for an unknown id or a finished task already forgotten. */
  get(taskId: string): TaskInfo | undefined {
    return this.table.entries.get(taskId)?.info;
  }

  /**
   * Resolves with the task's snapshot once it is no longer running (at once if it already
   * is not); `undefined` for an id the tracker does not know.
   *
   * @example
   * ```ts
   * const info = await engine.tasks.whenSettled(taskId);
   * console.log(info?.state, info?.result);
   * ```
   */
  async whenSettled(taskId: string): Promise<TaskInfo | undefined> {
    const entry = this.table.entries.get(taskId);
    if (!entry) return undefined;
    await entry.settled;
    return entry.info;
  }

  /**
   * The events a background task has produced so far (empty for foreground tasks). Of a
   * finished task, its answer-text deltas are gone (each `ReasonEnd` has the text), and the
   * whole log once the byte budget needed the room ({@link TaskTrackerLimits}).
   */
  events(taskId: string): readonly AgentEvent[] {
    return this.table.entries.get(taskId)?.log?.events ?? [];
  }

  /** Known tasks, optionally of one conversation, oldest first. */
  list(sessionId?: string): TaskInfo[] {
    const all = [...this.table.entries.values()].map((e) => e.info);
    return sessionId === undefined ? all : all.filter((t) => t.sessionId === sessionId);
  }

  /**
   * Cancels every running task (or only the background ones, or only those of one
   * conversation) and waits until they settle and their runs in this process have closed
   * their turns and given their sessions up: also the runs of the tasks it picks that had
   * settled already (one cancelled by id just before, still closing its turn).
   */
  async cancelAll(filter: { backgroundOnly?: boolean; sessionId?: string } = {}): Promise<void> {
    await this.table.cancelAll(filter);
  }

  /**
   * How {@link TaskTracker.cancelAll} (and so {@link TaskTracker.close}) learns that a
   * cancelled task's run here has given its session up, which it waits for after the task
   * settles: the engine gives the claims of its session store (`whenReleased`).
   *
   * @internal
   */
  awaitReleases(released: (taskId: string) => Promise<void>): void {
    this.table.released = released;
  }

  /** True once {@link TaskTracker.close} was called: no new background task may start. */
  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Refuses new background tasks from now on, cancels the running ones and waits until they
   * settle (what `engine.close()` does), then completes {@link TaskTracker.changes}, so its
   * subscribers are released. Foreground tasks belong to their runs' subscribers.
   */
  async close(): Promise<void> {
    this.isClosed = true;
    await this.cancelAll({ backgroundOnly: true });
    this.table.subject.complete();
  }

  /**
   * The finished background tasks of a conversation whose results were not handed over yet,
   * marked as handed over: each result is returned once.
   */
  takeUndelivered(sessionId: string): TaskInfo[] {
    return this.table.background.undelivered.take(sessionId);
  }

  /**
   * Gives back what {@link TaskTracker.takeUndelivered} and {@link TaskTracker.takeDropped}
   * handed over for a prompt that could not be saved, or the older results a prompt took but
   * does not show (past `shownAtOnce`): the conversation's next prompt has them.
   */
  putBack(sessionId: string, results: readonly TaskInfo[], dropped: DroppedResults | undefined): void {
    this.table.background.undelivered.putBack(sessionId, results, dropped);
  }

  /**
   * How many of a conversation's background results were dropped unread since it last
   * asked (to bound memory: {@link TaskTrackerLimits}), and the first ids; each note once.
   */
  takeDropped(sessionId: string): DroppedResults | undefined {
    return this.table.background.undelivered.takeDropped(sessionId);
  }
}
