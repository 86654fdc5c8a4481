import type { TaskEventLog } from './task-event-log.js';
import type { TaskInfo } from './task-info.js';

/** What a `TaskTracker` holds of one task: its latest snapshot and what acts on it. */
export interface TaskEntry {
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
 * The entry of a task that is queued or starts (`state`), after `earlier` (its entry before,
 * when resumed or when it waited in a queue: `waited`).
 */
export function startEntry(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void, state: 'queued' | 'running', earlier: TaskEntry | undefined, waited: boolean): TaskEntry {
  let resolve!: () => void;
  // A queued task that starts keeps its promise: `whenSettled` callers from its wait are answered.
  const settled = waited && earlier ? earlier.settled : new Promise<void>((r) => (resolve = r));
  if (waited && earlier) resolve = earlier.resolve;
  // Each run of a task starts later than the one before, even within a millisecond: the
  // start names the run, and so its result (`resultKey`), which a resume must not reuse.
  const startedAt = Math.max(Date.now(), (earlier?.info.startedAt ?? 0) + 1);
  // Object.assign, not a spread: V8 adds fields to a spread copy on a slow path (docs/performance.md, stop 42).
  return { info: Object.assign({}, info, { state, startedAt }), cancel, settled, resolve };
}

/** The bounds {@link FinishedTasks} keeps the finished tasks within. */
export interface FinishedBounds {
  readonly retainFinished: number;
  readonly retainedBytes: number;
}

/**
 * The finished tasks of a `TaskTracker`, oldest first, with what their logs and results
 * weigh, kept within their bounds: apart from the tracker's other bookkeeping because eviction
 * is its own policy (count first, then logs, then tasks), which the tracker only triggers.
 */
export class FinishedTasks {
  /** Finished task ids, oldest first (a Set keeps insertion order, and a resume removes one in O(1)). */
  private readonly ids = new Set<string>();
  /** What the finished tasks' logs and results weigh. */
  private bytes = 0;

  /**
   * @param entries the tracker's entries: a task forgotten here is removed from them.
   * @param waiting whether a task's result waits for delivery: such a task stays (those are bounded on their own).
   */
  constructor(
    private readonly entries: Map<string, TaskEntry>,
    private readonly bounds: FinishedBounds,
    private readonly waiting: (taskId: string) => boolean,
  ) {}

  /** A resumed task starts again under its id: it is no longer among the finished ones. */
  restart(taskId: string, earlier: TaskEntry): void {
    if (this.ids.delete(taskId)) this.bytes -= weightOf(earlier);
  }

  /** Counts a task that just finished, then evicts what is past the bounds. */
  add(taskId: string, entry: TaskEntry): void {
    this.ids.add(taskId);
    this.bytes += weightOf(entry);
    this.evict();
  }

  /**
   * Keeps the finished tasks within their bounds, oldest first: past the count, tasks are
   * forgotten; past the bytes, event logs are dropped, then tasks. A task whose result waits
   * for delivery stays.
   */
  private evict(): void {
    const { retainFinished, retainedBytes } = this.bounds;
    const forget = (id: string): void => {
      if (this.waiting(id)) return; // its result has not reached its session yet
      this.bytes -= weightOf(this.entries.get(id)!);
      this.ids.delete(id); // deleting the current entry does not disturb a Set's iteration
      this.entries.delete(id);
    };
    for (const id of this.ids) {
      if (this.ids.size <= retainFinished) break;
      forget(id);
    }
    for (const id of this.ids) {
      if (this.bytes <= retainedBytes) return;
      const entry = this.entries.get(id)!;
      this.bytes -= entry.log?.bytes ?? 0;
      entry.log = undefined;
    }
    for (const id of this.ids) {
      if (this.bytes <= retainedBytes) return;
      forget(id);
    }
  }
}

/** What a finished entry weighs: its event log and its result. */
function weightOf(entry: TaskEntry): number {
  return (entry.log?.bytes ?? 0) + (entry.info.result?.length ?? 0);
}
