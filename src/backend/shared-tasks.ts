import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { ChannelHub } from './channel-hub.js';
import type { RedisKeys } from './redis-keys.js';
import { warnBadData } from './bad-data-warning.js';
import { RefusedRecords } from './refused-records.js';
import { isPlainObject } from './stored-object.js';
import { isLive, parseOwnedTask, readTaskRecord, type TaskRecordRead } from './task-record.js';

/** A task as its record holds it: the snapshot and the instance that runs it. */
type OwnedTask = { readonly info: TaskInfo; readonly owner?: string };

type TaskMessage =
  | { readonly op: 'put'; readonly info: TaskInfo; readonly owner?: string }
  | { readonly op: 'cancel'; readonly taskId: string }
  | { readonly op: 'forget'; readonly taskIds: readonly string[] };

/**
 * The message that has every engine forget the copies it keeps of these tasks (their
 * conversation was deleted, with their records: see `RedisSessionStore.delete`).
 *
 * @internal
 */
export function forgetTasksMessage(taskIds: readonly string[]): string {
  const message: TaskMessage = { op: 'forget', taskIds };
  return JSON.stringify(message);
}

/**
 * The tasks of every engine on a backend: each engine's tracker publishes its tasks as they
 * change (a key per task, expiring `retentionMs` after it settles or a day after it
 * started, and a message), and every engine keeps a copy, so `tasks.get` and `tasks.list`
 * stay synchronous and see the others' tasks too. A cancel of another engine's task travels
 * to the engine that runs it.
 *
 * @internal
 */
export class SharedTasks {
  readonly #known = new Map<string, TaskInfo>();
  /** The instance that runs each known task (absent: published before owners were kept). */
  readonly #owners = new Map<string, string>();
  readonly #cancellers = new Set<(taskId: string) => void>();
  readonly #watchers = new Set<(info: TaskInfo) => void>();

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly retentionMs: number,
    /** The instance publishing through this copy. */
    readonly instanceId: string,
  ) {}

  /** Loads the tasks Redis knows and follows their changes. */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub, retentionMs: number, instanceId: string): Promise<{ tasks: SharedTasks; stop: () => void }> {
    const tasks = new SharedTasks(redis, keys, retentionMs, instanceId);
    const stop = await hub.listen(keys.tasksChannel, (text) => tasks.#onMessage(JSON.parse(text) as TaskMessage));
    const refused = new RefusedRecords('task records in Redis', 'loaded');
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', keys.task('*'), 'COUNT', 500);
      cursor = next;
      const values = found.length ? await redis.mget(...found) : [];
      values.forEach((text, i) => {
        const key = found[i]!;
        if (text === null) return; // expired since the scan, or not a string (no record of ours)
        const read = readTaskRecord(text);
        if ('problem' in read) return refused.add(key, read.problem);
        // A record under another task's key would stand in for that task (its end, its cancel).
        if (read.info.taskId !== key.slice(keys.task('').length)) return refused.add(key, `it names task ${JSON.stringify(read.info.taskId.slice(0, 80))}, not the task of its key`);
        tasks.#put(read);
      });
    } while (cursor !== '0');
    refused.report();
    return { tasks, stop };
  }

  /** Tells every engine where one of this engine's tasks stands. */
  publish(info: TaskInfo, owner = this.instanceId): void {
    this.#put({ info, owner });
    const ttl = isLive(info) ? 24 * 60 * 60_000 : this.retentionMs;
    const message: TaskMessage = { op: 'put', info, owner };
    this.redis
      .multi()
      .set(this.keys.task(info.taskId), JSON.stringify({ ...info, owner }), 'PX', ttl)
      .publish(this.keys.tasksChannel, JSON.stringify(message))
      .exec()
      .catch(() => undefined); // a lost update only makes another engine's copy stale
  }

  /** A task as its engine last published it. */
  get(taskId: string): TaskInfo | undefined {
    const info = this.#known.get(taskId);
    if (info?.endedAt !== undefined && info.endedAt + this.retentionMs <= Date.now()) {
      this.#known.delete(taskId);
      this.#owners.delete(taskId);
      return undefined;
    }
    return info;
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

  /** Records a dead instance's running (or queued) task as failed, for every engine (`whenSettled` resolves). */
  markFailed(taskId: string, reason: string): void {
    const info = this.#known.get(taskId);
    if (!info || !isLive(info)) return;
    this.publish({ ...info, state: 'failed', endedAt: Date.now(), result: `ERROR: ${reason}` }, this.#owners.get(taskId));
  }

  /**
   * Records a dead instance's live foreground task failed, for every engine, unless another
   * engine did first (the reaped marker, set once); resolves whether this one did. What the
   * dead-owner sweep does, and a wait for a cancel that nobody served.
   */
  async reap(taskId: string, stallMs: number): Promise<boolean> {
    if ((await this.redis.set(this.keys.reaped(taskId), this.instanceId, 'PX', this.retentionMs, 'NX')) !== 'OK') return false;
    this.markFailed(taskId, `the app instance running task ${taskId} stopped (no heartbeat for ${stallMs} ms)`);
    return true;
  }

  /**
   * {@link SharedTasks.reap} for a live foreground task of another instance that has no
   * heartbeat (its engine is gone: nobody will end it); a background task goes on on its
   * worker, and a live owner's task is its owner's to end. Resolves whether it was reaped.
   */
  async reapIfOwnerGone(taskId: string, stallMs: number): Promise<boolean> {
    const info = this.#known.get(taskId);
    const owner = this.#owners.get(taskId);
    if (!info || !isLive(info) || info.background || owner === undefined || owner === this.instanceId) return false;
    if ((await this.redis.exists(this.keys.instance(owner))) !== 0) return false;
    return this.reap(taskId, stallMs);
  }

  /**
   * Forgets what no engine will ask about again: settled tasks past the retention, and
   * tasks still `running` or `queued` after a day (their engine died; Redis has expired them too). Called
   * by the backend now and then, so an engine that never lists tasks does not grow.
   */
  prune(): void {
    const stale = Date.now() - 24 * 60 * 60_000;
    for (const [id, info] of this.#known) {
      if (isLive(info) ? info.startedAt < stale : this.get(id) === undefined) {
        this.#known.delete(id);
        this.#owners.delete(id);
      }
    }
  }

  /** Every known task. */
  list(): TaskInfo[] {
    return [...this.#known.keys()].flatMap((id) => this.get(id) ?? []);
  }

  /**
   * Asks the engine running the task (or holding it queued) to cancel it; false when no
   * engine is known to run it.
   * A background task's worker hears it too (the task id on the cancel channel, and a marker
   * naming the launch for a job not taken yet), since the task outlives its engine: the
   * worker acts on it once the task's launcher is gone (`orphan-background.ts`).
   */
  cancel(taskId: string): boolean {
    const info = this.get(taskId);
    if (!info || !isLive(info)) return false;
    const message: TaskMessage = { op: 'cancel', taskId };
    const sending = this.redis.multi().publish(this.keys.tasksChannel, JSON.stringify(message));
    // The marker first: a worker taking the job after the announcement finds it.
    if (info.background) sending.set(this.keys.taskCancelled(taskId), String(info.startedAt), 'PX', 10 * 60_000).publish(this.keys.cancelChannel, taskId);
    sending.exec().catch(() => undefined);
    return true;
  }

  /** Serves cancels sent to this engine's tasks; returns the stop. */
  serve(cancel: (taskId: string) => void): () => void {
    this.#cancellers.add(cancel);
    return () => this.#cancellers.delete(cancel);
  }

  /** Hears of every task change; returns the stop. */
  watch(watcher: (info: TaskInfo) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Drops the copies of deleted tasks (a list that is not one of ids drops nothing). */
  #forget(taskIds: unknown): void {
    if (!Array.isArray(taskIds)) return;
    for (const id of taskIds) {
      if (typeof id !== 'string') continue;
      this.#known.delete(id);
      this.#owners.delete(id);
    }
  }

  #put({ info, owner }: OwnedTask): void {
    // Messages of one task may cross: a settled task never goes back to running or queued,
    // nor a running one back to queued, unless it is a later run (a resume starts later).
    const known = this.#known.get(info.taskId);
    const behind = known !== undefined && isLive(info) && info.startedAt <= known.startedAt && (!isLive(known) || (known.state === 'running' && info.state === 'queued'));
    if (behind) return;
    this.#known.set(info.taskId, info);
    if (owner !== undefined) this.#owners.set(info.taskId, owner);
    for (const watcher of [...this.#watchers]) watcher(info);
  }

  /** Takes an announced task, or reports it refused (once per channel: a flood of forged messages must not flood the log). */
  #announced(read: TaskRecordRead, info: unknown): void {
    if ('info' in read) return this.#put(read);
    const id = isPlainObject(info) && typeof info['taskId'] === 'string' ? info['taskId'].slice(0, 200) : undefined;
    const key = id === undefined ? 'a task (no taskId)' : this.keys.task(id);
    warnBadData(this.keys.tasksChannel, `Skipped a task announcement on ${this.keys.tasksChannel} for ${key}: ${read.problem}, which an engine never publishes; the copies of other engines' tasks are kept as they were. Later bad announcements on this channel are skipped silently.`);
  }

  #onMessage(message: TaskMessage): void {
    if (message.op === 'put') return this.#announced(readTaskRecord({ ...message.info, owner: message.owner }), message.info);
    if (message.op === 'forget') return this.#forget(message.taskIds);
    for (const cancel of [...this.#cancellers]) cancel(message.taskId);
  }
}

/** KEYS[1]: a task's key. Replaces the record only if it is still the text read (ARGV[1]), then announces it. */
const SWAP = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1`;

/**
 * Records a background task's end in its shared record, for when the engine that launched it
 * is gone (what a worker does as it finishes one): the record keeps what that engine wrote
 * (its start, owner) and takes `final`'s state, end, result and metrics, as its tracker
 * would. Only a record still `running`, and not of a later launch than `queuedAt`, is
 * settled, by compare-and-swap: a cancel (or any end) its live engine recorded is never
 * undone, and a live engine's own record, written after, is the one that stays (it agrees,
 * up to `endedAt`). Resolves whether it settled the record.
 *
 * @internal
 */
export async function settleRecord(redis: Redis, keys: RedisKeys, final: TaskInfo, queuedAt: number | undefined, retentionMs: number): Promise<boolean> {
  const key = keys.task(final.taskId);
  // Another write between the read and the swap: read again (it is at most the engine's own end).
  for (let attempt = 0; attempt < 3; attempt++) {
    const text = await redis.get(key);
    const owned = text === null ? undefined : parseOwnedTask(text);
    if (!owned || owned.info.state !== 'running' || (queuedAt !== undefined && owned.info.startedAt > queuedAt)) return false;
    const { state, endedAt, result, metrics } = final;
    const info: TaskInfo = { ...owned.info, state, endedAt, result, ...(metrics ? { metrics } : {}) };
    const message: TaskMessage = { op: 'put', info, owner: owned.owner };
    const stored = JSON.stringify({ ...info, owner: owned.owner });
    if ((await redis.eval(SWAP, 1, key, text!, stored, String(retentionMs), keys.tasksChannel, JSON.stringify(message))) === 1) return true;
  }
  return false;
}
