import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { ChannelHub } from './channel-hub.js';
import { badMessagesOn } from './channel-warnings.js';
import { instanceGone } from './instance-gone.js';
import { lapseMs } from './worker-lapse.js';
import { KnownTasks, LIVE_TTL_MS } from './known-tasks.js';
import { loadTaskRecords } from './load-task-records.js';
import type { RedisKeys } from './redis-keys.js';
import { GoneChecks } from './gone-checks.js';
import { applyTaskMessage, SKIPPED, type Canceller, type TaskChannelState } from './task-channel.js';
import { cancelTaskMessage, forgetTasksMessage, putTaskMessage } from './task-messages.js';
import { isLive } from './task-record.js';

/**
 * The tasks of every engine on a backend: each engine's tracker publishes its tasks as they
 * change (a key per task, expiring `retentionMs` after it settles or a day after it
 * started, and a message), and every engine keeps a copy ({@link KnownTasks}), so
 * `tasks.get` and `tasks.list` stay synchronous and see the others' tasks too. A cancel of
 * another engine's task travels to the engine that runs it.
 *
 * @internal
 */
export class SharedTasks {
  readonly #known: KnownTasks;
  readonly #cancellers = new Set<Canceller>();

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly retentionMs: number,
    /** The instance publishing through this copy. */
    readonly instanceId: string,
  ) {
    this.#known = new KnownTasks(retentionMs, instanceId);
  }

  /**
   * Loads the tasks Redis knows and follows their changes (`applyTaskMessage`; messages that
   * are none are skipped, said at most once a minute: `badMessagesOn`); after its subscriber
   * connection dropped, reads them again (`reload`).
   */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub, retentionMs: number, instanceId: string): Promise<{ tasks: SharedTasks; stop: () => void }> {
    const tasks = new SharedTasks(redis, keys, retentionMs, instanceId);
    const bad = badMessagesOn(keys.tasksChannel, SKIPPED);
    const state: TaskChannelState = { redis, keys, known: tasks.#known, bad, cancellers: () => [...tasks.#cancellers], checks: new GoneChecks() };
    const onResubscribed = (): void => void tasks.#reload(state).catch(() => undefined); // Redis away: the copy stays
    const unlisten = await hub.listen(keys.tasksChannel, (text) => applyTaskMessage(state, text), { onResubscribed }).catch((e: unknown) => {
      bad.release(); // held for nothing: left, the channel's warnings would never be closed
      throw e;
    });
    const stop = (): void => {
      unlisten();
      bad.release();
    };
    await loadTaskRecords(redis, keys, (task) => tasks.#known.put(task)).catch((e: unknown) => {
      stop();
      throw e;
    });
    return { tasks, stop };
  }

  /**
   * Reads again what the tasks channel may have announced while it was not subscribed: each
   * record, unless a message changed the task meanwhile (then it is as new as the read, or
   * newer) or it is known as it is; the cancels of this engine's live tasks and the forgets of
   * others' tasks Redis no longer holds, each as its message goes (read back from Redis).
   */
  async #reload(state: TaskChannelState): Promise<void> {
    const before = new Map(this.#known.list().map((info) => [info.taskId, info]));
    // Our own live tasks are as we publish them: a write of ours that failed left Redis behind.
    const mine = (id: string): boolean => this.#known.live(id)?.owner === this.instanceId;
    const found = new Set<string>();
    await loadTaskRecords(this.redis, this.keys, (task) => {
      const id = task.info.taskId;
      found.add(id);
      const held = this.#known.get(id);
      if (held === before.get(id) && !mine(id) && JSON.stringify(held) !== JSON.stringify(task.info)) this.#known.put(task);
    });
    for (const id of before.keys()) if (mine(id)) applyTaskMessage(state, cancelTaskMessage(id));
    const gone = [...before.keys()].filter((id) => !found.has(id) && !mine(id));
    if (gone.length > 0) applyTaskMessage(state, forgetTasksMessage(gone));
  }

  /** Tells every engine where one of this engine's tasks stands. */
  publish(info: TaskInfo, owner = this.instanceId): void {
    this.#known.put({ info, owner });
    const ttl = isLive(info) ? LIVE_TTL_MS : this.retentionMs;
    this.redis
      .multi()
      .set(this.keys.task(info.taskId), JSON.stringify({ ...info, owner }), 'PX', ttl)
      .publish(this.keys.tasksChannel, putTaskMessage(info, owner))
      .exec()
      .catch(() => undefined); // a lost update only makes another engine's copy stale
  }

  /** A task as its engine last published it. */
  get(taskId: string): TaskInfo | undefined {
    return this.#known.get(taskId);
  }

  /** Every known task. */
  list(): TaskInfo[] {
    return this.#known.list();
  }

  /** The running (or queued) tasks of other instances, by owner: see {@link KnownTasks.runningOfOthers}. */
  runningOfOthers(background = false): Map<string, TaskInfo[]> {
    return this.#known.runningOfOthers(background);
  }

  /** Records a dead instance's running (or queued) task as failed, for every engine (`whenSettled` resolves). */
  markFailed(taskId: string, reason: string): void {
    const live = this.#known.live(taskId);
    if (live) this.publish({ ...live.info, state: 'failed', endedAt: Date.now(), result: `ERROR: ${reason}` }, live.owner);
  }

  /**
   * Records a dead instance's live foreground task failed, for every engine, unless another
   * engine did first (the reaped marker, set once); resolves whether this one did. What the
   * dead-owner sweep does, and a wait for a cancel that nobody served. `stallMs` is the stall
   * interval: the reason names the silence after which an instance is gone (`lapseMs`).
   */
  async reap(taskId: string, stallMs: number): Promise<boolean> {
    if ((await this.redis.set(this.keys.reaped(taskId), this.instanceId, 'PX', this.retentionMs, 'NX')) !== 'OK') return false;
    this.markFailed(taskId, `the app instance running task ${taskId} stopped (no heartbeat for ${lapseMs(stallMs)} ms)`);
    return true;
  }

  /**
   * {@link SharedTasks.reap} for a live foreground task of another instance that has no
   * heartbeat (its engine is gone: nobody will end it); a background task goes on on its
   * worker, and a live owner's task is its owner's to end. Resolves whether it was reaped.
   */
  async reapIfOwnerGone(taskId: string, stallMs: number): Promise<boolean> {
    const live = this.#known.live(taskId);
    if (!live || live.info.background || live.owner === undefined || live.owner === this.instanceId) return false;
    if (!(await instanceGone(this.redis, this.keys, live.owner))) return false;
    return this.reap(taskId, stallMs);
  }

  /**
   * Forgets what no engine will ask about again ({@link KnownTasks.prune}). Called by the
   * backend now and then, so an engine that never lists tasks does not grow.
   */
  prune(): void {
    this.#known.prune();
  }

  /**
   * Asks the engine running the task (or holding it queued) to cancel it; false when no
   * engine is known to run it.
   * The message comes with a marker naming the launch, which the engine reads back before it
   * cancels (anyone can publish a message). A background task's worker hears it too (the task
   * id on the cancel channel; the marker for a job not taken yet), since the task outlives its
   * engine: the worker acts on it once the task's launcher is gone (`orphan-background.ts`).
   */
  cancel(taskId: string): boolean {
    const info = this.get(taskId);
    if (!info || !isLive(info)) return false;
    // The marker first: an engine reading it back, or a worker taking the job, finds it.
    const sending = this.redis.multi().set(this.keys.taskCancelled(taskId), String(info.startedAt), 'PX', 10 * 60_000).publish(this.keys.tasksChannel, cancelTaskMessage(taskId));
    if (info.background) sending.publish(this.keys.cancelChannel, taskId);
    sending.exec().catch(() => undefined);
    return true;
  }

  /**
   * Serves cancels sent to this engine's tasks; returns the stop. With `runsHere` (whether
   * this engine runs or holds queued the task, from its own tracker, never from the channel),
   * a cancel of a task it does not is not read back from Redis: only the engine running the
   * task pays for its cancel.
   */
  serve(cancel: (taskId: string) => void, runsHere?: (taskId: string) => boolean): () => void {
    const canceller: Canceller = runsHere ? { cancel, runsHere } : { cancel };
    this.#cancellers.add(canceller);
    return () => this.#cancellers.delete(canceller);
  }

  /** Hears of every task change; returns the stop. */
  watch(watcher: (info: TaskInfo) => void): () => void {
    return this.#known.watch(watcher);
  }
}
