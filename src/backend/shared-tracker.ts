import { TaskTracker, type TaskInfo } from '../delegation/task-tracker.js';
import type { TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import type { DroppedResults } from '../delegation/undelivered-results.js';
import { cancelElsewhere, whenSettledElsewhere } from './cancel-elsewhere.js';
import type { SharedResults } from './shared-results.js';
import type { SharedTasks } from './shared-tasks.js';
import { isLive } from './task-record.js';

/**
 * An engine's task tracker on a backend: its own tasks as before, published to every engine
 * ({@link SharedTasks}), so `get`, `list`, `whenSettled` and `cancel` reach any engine's
 * task; and at a conversation's next prompt the background results of every engine's tasks
 * for it ({@link SharedResults}), its own handed over there as they finish. Its limits'
 * `undelivered*` become the bound Redis keeps on every waiting result, a worker's too.
 *
 * @internal
 */
export class SharedTaskTracker extends TaskTracker {
  readonly #stops: (() => void)[];
  /** Conversations forgotten while background tasks of theirs ran here: what those leave waiting in Redis as they end is dropped. */
  readonly #forgotten = new Set<string>();

  constructor(
    private readonly results: SharedResults,
    private readonly tasks: SharedTasks,
    limits: TaskTrackerLimits = {},
    /** The stall interval: a conversation's delete waits for another engine's task to settle once cancelled up to the lapse (`lapseMs`) after which that engine is taken for dead. */
    private readonly stallMs = 30_000,
  ) {
    super(limits);
    // Before this engine launches anything: a worker's put reads the bound from Redis.
    results.bound(limits).catch(() => undefined); // Redis is away: the puts fail too
    const publishing = this.changes.subscribe((info) => {
      tasks.publish(info);
      if (!info.background || info.state === 'running' || info.state === 'queued') return;
      if (this.#forgotten.has(info.sessionId)) this.#dropForgotten(info.sessionId);
      else this.#handOver(info.sessionId);
    });
    // Only a task running here is cancelled here; super.cancel never relays again.
    const runsHere = (taskId: string): boolean => {
      const own = super.get(taskId);
      return own !== undefined && isLive(own);
    };
    this.#stops = [() => publishing.unsubscribe(), tasks.serve((taskId) => void super.cancel(taskId), runsHere)];
  }

  override get(taskId: string): TaskInfo | undefined {
    return super.get(taskId) ?? this.tasks.get(taskId);
  }

  override list(sessionId?: string): TaskInfo[] {
    const own = super.list(sessionId);
    const mine = new Set(own.map((t) => t.taskId));
    const others = this.tasks.list().filter((t) => !mine.has(t.taskId) && (sessionId === undefined || t.sessionId === sessionId));
    return [...own, ...others];
  }

  override cancel(taskId: string): boolean {
    return super.get(taskId) ? super.cancel(taskId) : this.tasks.cancel(taskId);
  }

  /**
   * Cancels this engine's tasks as in-process and, for one conversation (its delete), that
   * conversation's tasks other engines run too, by the cancel each `cancel(taskId)` sends,
   * and waits until every engine has recorded them settled, another engine's for at most the
   * lapse (`lapseMs` of the stall interval: two), the silence after which its engine is taken
   * for dead. So a foreground or queued task of an engine that is gone, even one killed just
   * before the call, is recorded failed by the time this returns (the cancel reached nobody).
   * A background task of a gone engine may still be live then: its worker goes on until it
   * hears the cancel (`orphan-background.ts`); the delete marks its tasks deleted anyway.
   * Without a conversation (this engine's close) only this engine's tasks are cancelled.
   */
  override async cancelAll(filter: { backgroundOnly?: boolean; sessionId?: string } = {}): Promise<void> {
    const { sessionId, backgroundOnly } = filter;
    const own = (taskId: string): boolean => super.get(taskId) !== undefined;
    const elsewhere = sessionId === undefined ? [] : this.tasks.list().filter((t) => t.sessionId === sessionId && isLive(t) && (!backgroundOnly || t.background) && !own(t.taskId));
    // The others' cancels are sent first, as soon as asked (their engines serve them meanwhile).
    const others = cancelElsewhere(this.tasks, elsewhere, this.stallMs);
    await Promise.all([super.cancelAll(filter), others]);
  }

  override whenSettled(taskId: string): Promise<TaskInfo | undefined> {
    if (super.get(taskId) || !this.tasks.get(taskId)) return super.whenSettled(taskId);
    return whenSettledElsewhere(this.tasks, taskId);
  }

  /**
   * The conversation's waiting background results, of every engine's tasks: all of them wait
   * in the shared results, which keep the one bound (so the note of dropped ones and the
   * delivery agree).
   */
  override takeUndelivered(sessionId: string): TaskInfo[] {
    this.#handOver(sessionId);
    return this.results.take(sessionId);
  }

  /**
   * Gives back, to the shared results, what a prompt that could not be saved took, or the
   * older results a prompt took but does not show: the conversation's next prompt has them,
   * on whichever engine runs it.
   */
  override putBack(sessionId: string, results: readonly TaskInfo[], dropped: DroppedResults | undefined): void {
    this.results.putBack(sessionId, results, dropped);
  }

  /** The note of the conversation's results dropped unread, from the shared results' bound. */
  override takeDropped(sessionId: string): DroppedResults | undefined {
    return this.results.takeDropped(sessionId);
  }

  override forgetSession(sessionId: string): void {
    super.forgetSession(sessionId);
    this.results.forget(sessionId);
    // Its tasks on workers put their results in Redis themselves as they end: those are dropped then.
    if (this.runningBackgroundOf(sessionId) > 0) this.#forgotten.add(sessionId);
  }

  /** Drops what a forgotten conversation's task that just ended left waiting (a worker's put comes before the end reaches here). */
  #dropForgotten(sessionId: string): void {
    if (this.runningBackgroundOf(sessionId) === 0) this.#forgotten.delete(sessionId);
    this.results.dropAll(sessionId).catch(() => undefined); // Redis is away: it expires with its TTL
  }

  override async close(): Promise<void> {
    await super.close();
    for (const stop of this.#stops.splice(0)) stop();
  }

  /**
   * Moves this engine's finished background results of a conversation (its own list keeps
   * them, bounded on its own) to the shared results at once: one list, one bound. Another
   * engine may have delivered one of ours already (the conversation moved there). A closed
   * engine's are dropped, as in-process: the conversation's next prompt, on any engine, tells
   * the tasks it cancelled as it closed from the history (`lostBackgroundResults`).
   */
  #handOver(sessionId: string): void {
    const own = super.takeUndelivered(sessionId);
    if (this.closed) return;
    for (const info of own) if (!this.results.wasTaken(info)) this.results.put(info);
  }
}
