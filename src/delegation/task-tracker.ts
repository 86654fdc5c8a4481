import { Subject, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunMetrics } from '../events/run-metrics.js';
import { TaskEventLog } from './task-event-log.js';
import { RunningBackground } from './running-background.js';
import { TaskRefusedError } from './task-refused-error.js';
import { DEFAULT_TASK_TRACKER_LIMITS, type TaskTrackerLimits } from './task-tracker-limits.js';
import { UndeliveredResults, type DroppedResults } from './undelivered-results.js';

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

interface Entry {
  info: TaskInfo;
  cancel?: () => void;
  /** Resolves when the task settles (for `whenSettled`). */
  settled: Promise<void>;
  resolve: () => void;
  /** The child's own events, kept for background tasks only (nobody streams them) while the byte budget allows. */
  log?: TaskEventLog;
  /** Its conversation will never run again: its result is not kept for delivery. */
  orphaned?: boolean;
}

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
  private readonly entries = new Map<string, Entry>();
  /** Finished task ids, oldest first (a Set keeps insertion order, and a resume removes one in O(1)). */
  private readonly finished = new Set<string>();
  /** What the finished tasks' logs and results weigh. */
  private finishedBytes = 0;
  /**
   * Finished background results not yet put in front of a prompt of their session, oldest
   * first. Snapshots, not entries: resuming a task restarts its entry, and its earlier
   * result must still arrive.
   */
  private readonly undelivered: UndeliveredResults<TaskInfo>;
  /** The background tasks running now, counted by conversation (and by forgotten conversation). */
  private readonly runningBackground = new RunningBackground();
  private readonly subject = new Subject<TaskInfo>();
  private isClosed = false;
  /**
   * Every task snapshot as it changes (start, then end). Completes when {@link TaskTracker.close}
   * has settled the background tasks, after their last snapshots; changes after that (a
   * foreground task of a run still going) are not published.
   */
  readonly changes: Observable<TaskInfo> = this.subject.asObservable();

  private readonly limits: Required<TaskTrackerLimits>;

  constructor(limits: TaskTrackerLimits = {}) {
    this.limits = { ...DEFAULT_TASK_TRACKER_LIMITS, ...limits };
    this.undelivered = new UndeliveredResults(this.limits.undeliveredResults, this.limits.undeliveredChars);
  }

  /**
   * Registers a starting task; `cancel` stops it and settles its result as cancelled.
   *
   * @throws TaskRefusedError when a task with that id is running: two runs of one task would write
   * into one child session at once. Checked here, synchronously, so two resumes racing
   * through their asynchronous checks cannot both start.
   */
  start(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void): void {
    this.register(info, cancel, 'running');
  }

  /**
   * Registers a task that waits for a slot of its `multitask` pool (state `queued`);
   * `cancel` takes it out of the queue and settles it as cancelled. {@link TaskTracker.start}
   * moves it to `running` when it gets its slot.
   *
   * @throws TaskRefusedError when a task with that id is running or queued.
   */
  queue(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void): void {
    this.register(info, cancel, 'queued');
  }

  private register(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void, state: 'queued' | 'running'): void {
    const earlier = this.entries.get(info.taskId);
    const waited = earlier?.info.state === 'queued' && state === 'running';
    if (!waited && (earlier?.info.state === 'running' || earlier?.info.state === 'queued')) {
      throw new TaskRefusedError(`task "${info.taskId}" is still running; wait for its result before resuming it`);
    }
    let resolve!: () => void;
    // A queued task that starts keeps its promise: `whenSettled` callers from its wait are answered.
    const settled = waited ? earlier.settled : new Promise<void>((r) => (resolve = r));
    if (waited) resolve = earlier.resolve;
    // Each run of a task starts later than the one before, even within a millisecond: the
    // start names the run, and so its result (`resultKey`), which a resume must not reuse.
    const startedAt = Math.max(Date.now(), (earlier?.info.startedAt ?? 0) + 1);
    // Object.assign, not a spread: V8 adds fields to a spread copy on a slow path (docs/performance.md, stop 42).
    const entry: Entry = { info: Object.assign({}, info, { state, startedAt }), cancel, settled, resolve };
    if (info.background) {
      entry.log = new TaskEventLog(this.limits.runningEventBytes);
      this.runningBackground.add(info.taskId, info.sessionId);
      if (this.runningBackground.isForgotten(info.sessionId)) this.orphan(entry);
    }
    // A resumed task starts again under its id: it is no longer among the finished ones.
    if (earlier && this.finished.delete(info.taskId)) this.finishedBytes -= weightOf(earlier);
    this.entries.set(info.taskId, entry);
    this.subject.next(entry.info);
  }

  /** Records an event of a task whose log is kept. */
  log(taskId: string, event: AgentEvent): void {
    this.entries.get(taskId)?.log?.push(event);
  }

  /** Settles a task (running or queued); later calls for the same task are ignored. */
  finish(taskId: string, state: Exclude<TaskState, 'running' | 'queued'>, result: string, metrics?: RunMetrics): void {
    const entry = this.entries.get(taskId);
    if (!entry || (entry.info.state !== 'running' && entry.info.state !== 'queued')) return;
    entry.info = Object.assign({}, entry.info, { state, endedAt: Date.now(), result }, metrics && { metrics });
    entry.cancel = undefined;
    entry.log?.compact();
    this.runningBackground.remove(taskId, entry.info.sessionId);
    if (entry.orphaned) this.runningBackground.countOrphan(entry.info.sessionId, -1);
    else if (entry.info.background) this.undelivered.push(entry.info);
    entry.resolve();
    this.finished.add(taskId);
    this.finishedBytes += weightOf(entry);
    this.evict();
    this.subject.next(entry.info);
  }

  /**
   * Keeps the finished tasks within their bounds, oldest first: past the count, tasks are
   * forgotten; past the bytes, event logs are dropped, then tasks. A task whose result waits
   * for delivery stays (those are bounded on their own).
   */
  private evict(): void {
    const { retainFinished, retainedBytes } = this.limits;
    const forget = (id: string): void => {
      if (this.undelivered.has(id)) return; // its result has not reached its session yet
      this.finishedBytes -= weightOf(this.entries.get(id)!);
      this.finished.delete(id); // deleting the current entry does not disturb a Set's iteration
      this.entries.delete(id);
    };
    for (const id of this.finished) {
      if (this.finished.size <= retainFinished) break;
      forget(id);
    }
    for (const id of this.finished) {
      if (this.finishedBytes <= retainedBytes) return;
      const entry = this.entries.get(id)!;
      this.finishedBytes -= entry.log?.bytes ?? 0;
      entry.log = undefined;
    }
    for (const id of this.finished) {
      if (this.finishedBytes <= retainedBytes) return;
      forget(id);
    }
  }

  /**
   * Says that a conversation will never run again (a run without a `sessionId` has ended):
   * its undelivered background results are dropped, and so are those of its tasks still
   * running when they finish, and of the background tasks those start meanwhile (they stay
   * readable through `get` and `whenSettled`).
   */
  forgetSession(sessionId: string): void {
    this.undelivered.forget(sessionId);
    for (const id of this.runningBackground.taskIds) {
      const entry = this.entries.get(id);
      if (entry?.info.sessionId === sessionId && !entry.orphaned) this.orphan(entry);
    }
  }

  /** Marks a running background task of a forgotten conversation: its result is not kept for delivery. */
  private orphan(entry: Entry): void {
    entry.orphaned = true;
    this.runningBackground.countOrphan(entry.info.sessionId, 1);
  }

  /** How many background tasks of a conversation are running in this engine now (in O(1): the runner asks at every start). */
  runningBackgroundOf(sessionId: string): number {
    return this.runningBackground.of(sessionId);
  }

  /** Cancels a running task, or takes a queued one out of its queue. Returns false when no such task has that id. */
  cancel(taskId: string): boolean {
    const entry = this.entries.get(taskId);
    if (!entry?.cancel) return false;
    entry.cancel();
    return true;
  }

  /** The task's latest snapshot; `undefined` for an unknown id or a finished task already forgotten. */
  get(taskId: string): TaskInfo | undefined {
    return this.entries.get(taskId)?.info;
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
    const entry = this.entries.get(taskId);
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
    return this.entries.get(taskId)?.log?.events ?? [];
  }

  /** Known tasks, optionally of one conversation, oldest first. */
  list(sessionId?: string): TaskInfo[] {
    const all = [...this.entries.values()].map((e) => e.info);
    return sessionId === undefined ? all : all.filter((t) => t.sessionId === sessionId);
  }

  /**
   * Cancels every running task (or only the background ones, or only those of one
   * conversation) and waits until they settle.
   */
  async cancelAll(filter: { backgroundOnly?: boolean; sessionId?: string } = {}): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const [id, entry] of [...this.entries]) {
      if ((entry.info.state !== 'running' && entry.info.state !== 'queued') || (filter.backgroundOnly && !entry.info.background)) continue;
      if (filter.sessionId !== undefined && entry.info.sessionId !== filter.sessionId) continue;
      waits.push(entry.settled);
      this.cancel(id);
    }
    await Promise.all(waits);
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
    this.subject.complete();
  }

  /**
   * The finished background tasks of a conversation whose results were not handed over yet,
   * marked as handed over: each result is returned once.
   */
  takeUndelivered(sessionId: string): TaskInfo[] {
    return this.undelivered.take(sessionId);
  }

  /**
   * Gives back what {@link TaskTracker.takeUndelivered} and {@link TaskTracker.takeDropped}
   * handed over for a prompt that could not be saved, or the older results a prompt took but
   * does not show (past `shownAtOnce`): the conversation's next prompt has them.
   */
  putBack(sessionId: string, results: readonly TaskInfo[], dropped: DroppedResults | undefined): void {
    this.undelivered.putBack(sessionId, results, dropped);
  }

  /**
   * How many of a conversation's background results were dropped unread since it last
   * asked (to bound memory: {@link TaskTrackerLimits}), and the first ids; each note once.
   */
  takeDropped(sessionId: string): DroppedResults | undefined {
    return this.undelivered.takeDropped(sessionId);
  }
}

/** What a finished entry weighs: its event log and its result. */
function weightOf(entry: Entry): number {
  return (entry.log?.bytes ?? 0) + (entry.info.result?.length ?? 0);
}
