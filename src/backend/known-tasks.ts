import type { TaskInfo } from '../delegation/task-tracker.js';
import { isLive } from './task-record.js';

/** A task as its record holds it: the snapshot and the instance that runs it. */
export type OwnedTask = { readonly info: TaskInfo; readonly owner?: string };

/** A day: how long a task may stay live before its engine is taken for dead (Redis expires its record then too). */
export const LIVE_TTL_MS = 24 * 60 * 60_000;

/**
 * One engine's copy of every engine's tasks (`SharedTasks` keeps it current from Redis):
 * each task's last snapshot and the instance running it, kept in order (a late message
 * never moves a task back), forgotten once past the retention, and told to watchers as it
 * changes. Synchronous, so `tasks.get` and `tasks.list` are.
 *
 * @internal
 */
export class KnownTasks {
  readonly #known = new Map<string, TaskInfo>();
  /** The instance that runs each known task (absent: published before owners were kept). */
  readonly #owners = new Map<string, string>();
  readonly #watchers = new Set<(info: TaskInfo) => void>();
  /** The queued launch each running task came from (a start is a later `startedAt`): a cancel may name either. */
  readonly #queuedAs = new Map<string, number>();

  constructor(
    private readonly retentionMs: number,
    /** The instance whose engine keeps this copy: its own tasks are not "of others". */
    private readonly instanceId: string,
  ) {}

  /** Takes a task's snapshot, unless it is behind the one known, and tells the watchers. */
  put({ info, owner }: OwnedTask): void {
    // Messages of one task may cross: a settled task never goes back to running or queued,
    // nor a running one back to queued, unless it is a later run (a resume starts later).
    const known = this.#known.get(info.taskId);
    const behind = known !== undefined && isLive(info) && info.startedAt <= known.startedAt && (!isLive(known) || (known.state === 'running' && info.state === 'queued'));
    if (behind) return;
    if (known?.state === 'queued' && info.state === 'running') this.#queuedAs.set(info.taskId, known.startedAt);
    else if (known?.startedAt !== info.startedAt) this.#queuedAs.delete(info.taskId);
    this.#known.set(info.taskId, info);
    if (owner !== undefined) this.#owners.set(info.taskId, owner);
    for (const watcher of [...this.#watchers]) watcher(info);
  }

  /** A task as last known, unless it settled longer ago than the retention (then forgotten). */
  get(taskId: string): TaskInfo | undefined {
    const info = this.#known.get(taskId);
    if (info?.endedAt !== undefined && info.endedAt + this.retentionMs <= Date.now()) {
      this.#drop(taskId);
      return undefined;
    }
    return info;
  }

  /**
   * Whether `start` (a cancel marker's, see `SharedTasks.cancel`) names the launch of the task
   * known now: its start, or the start it had while queued, which another engine's copy may
   * still hold as it cancels.
   */
  namesLaunch(taskId: string, start: string): boolean {
    const info = this.#known.get(taskId);
    if (!info) return false;
    return start === String(info.startedAt) || (info.state === 'running' && start === String(this.#queuedAs.get(taskId)));
  }

  /** A live task with the instance running it (undefined when it is not live, or not known). */
  live(taskId: string): OwnedTask | undefined {
    const info = this.#known.get(taskId);
    if (!info || !isLive(info)) return undefined;
    const owner = this.#owners.get(taskId);
    return owner === undefined ? { info } : { info, owner };
  }

  /** Every known task within the retention. */
  list(): TaskInfo[] {
    return [...this.#known.keys()].flatMap((id) => this.get(id) ?? []);
  }

  /**
   * The running tasks of other instances, by owner: the foreground ones (`background`
   * false), which die with their engine, queued ones too (a queued task is always a
   * foreground `multitask` child), or the background ones, which outlive it on their
   * workers (see `orphan-background.ts`).
   */
  runningOfOthers(background = false): Map<string, TaskInfo[]> {
    const byOwner = new Map<string, TaskInfo[]>();
    for (const [id, info] of this.#known) {
      const owner = this.#owners.get(id);
      if (!(background ? info.state === 'running' : isLive(info)) || info.background !== background || owner === undefined || owner === this.instanceId) continue;
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), info]);
    }
    return byOwner;
  }

  /**
   * Forgets what no engine will ask about again: settled tasks past the retention, and
   * tasks still `running` or `queued` after a day (their engine died; Redis has expired them too).
   */
  prune(): void {
    const stale = Date.now() - LIVE_TTL_MS;
    for (const [id, info] of this.#known) if (isLive(info) ? info.startedAt < stale : this.get(id) === undefined) this.#drop(id);
  }

  /** Drops the copies of deleted tasks (a list that is not one of ids drops nothing). */
  forget(taskIds: unknown): void {
    if (!Array.isArray(taskIds)) return;
    for (const id of taskIds) if (typeof id === 'string') this.#drop(id);
  }

  /** Hears of every task change; returns the stop. */
  watch(watcher: (info: TaskInfo) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  #drop(taskId: string): void {
    this.#known.delete(taskId);
    this.#owners.delete(taskId);
    this.#queuedAs.delete(taskId);
  }
}
