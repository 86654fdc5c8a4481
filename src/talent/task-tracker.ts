import { Subject, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunMetrics } from '../events/run-metrics.js';

/** Where a task is in its life. */
export type TaskState = 'running' | 'done' | 'failed' | 'cancelled';

/** A snapshot of one delegated task. */
export interface TaskInfo {
  readonly taskId: string;
  readonly agentName: string;
  readonly description: string;
  /** The conversation (main session) that started it; only it may resume the task. */
  readonly sessionId: string;
  /** The run that called `task` / `multitask`. */
  readonly parentRunId: string;
  readonly background: boolean;
  readonly state: TaskState;
  readonly startedAt: number;
  readonly endedAt?: number;
  /** The content of its result once it ended (a failure's starts with `ERROR: `). */
  readonly result?: string;
  readonly metrics?: RunMetrics;
}

interface Entry {
  info: TaskInfo;
  cancel?: () => void;
  /** The child's own events, kept for background tasks only (nobody streams them). */
  log?: AgentEvent[];
}

/**
 * Knows every task of an engine: running ones (so one can be cancelled by id) and the most
 * recent finished ones (bounded, so a long-lived engine does not grow). Every change is
 * published on `changes`.
 *
 * @example
 * ```ts
 * engine.tasks.changes.subscribe((t) => console.log(t.taskId, t.state));
 * ```
 */
export class TaskTracker {
  private readonly entries = new Map<string, Entry>();
  private readonly finishedOrder: string[] = [];
  private readonly subject = new Subject<TaskInfo>();
  /** Every task snapshot as it changes (start, then end). */
  readonly changes: Observable<TaskInfo> = this.subject.asObservable();

  constructor(private readonly retainFinished = 1000) {}

  /** Registers a starting task; `cancel` stops it and settles its result as cancelled. */
  start(info: Omit<TaskInfo, 'state' | 'startedAt'>, cancel: () => void, keepLog = false): void {
    const entry: Entry = { info: { ...info, state: 'running', startedAt: Date.now() }, cancel };
    if (keepLog) entry.log = [];
    this.entries.set(info.taskId, entry);
    this.subject.next(entry.info);
  }

  /** Records an event of a task whose log is kept. */
  log(taskId: string, event: AgentEvent): void {
    this.entries.get(taskId)?.log?.push(event);
  }

  /** Settles a task; later calls for the same task are ignored. */
  finish(taskId: string, state: Exclude<TaskState, 'running'>, result: string, metrics?: RunMetrics): void {
    const entry = this.entries.get(taskId);
    if (!entry || entry.info.state !== 'running') return;
    entry.info = { ...entry.info, state, endedAt: Date.now(), result, ...(metrics ? { metrics } : {}) };
    entry.cancel = undefined;
    this.finishedOrder.push(taskId);
    while (this.finishedOrder.length > this.retainFinished) this.entries.delete(this.finishedOrder.shift()!);
    this.subject.next(entry.info);
  }

  /** Cancels a running task. Returns false when no running task has that id. */
  cancel(taskId: string): boolean {
    const entry = this.entries.get(taskId);
    if (!entry?.cancel) return false;
    entry.cancel();
    return true;
  }

  get(taskId: string): TaskInfo | undefined {
    return this.entries.get(taskId)?.info;
  }

  /** The events a background task has produced so far (empty for foreground tasks). */
  events(taskId: string): readonly AgentEvent[] {
    return this.entries.get(taskId)?.log ?? [];
  }

  /** Known tasks, optionally of one conversation, oldest first. */
  list(sessionId?: string): TaskInfo[] {
    const all = [...this.entries.values()].map((e) => e.info);
    return sessionId === undefined ? all : all.filter((t) => t.sessionId === sessionId);
  }

  /** Cancels every running task. */
  cancelAll(): void {
    for (const id of [...this.entries.keys()]) this.cancel(id);
  }
}
