/**
 * How a launcher notices that no worker will run a child's job (a worker died, or none pulls
 * from the queue), to fail the child with a `RemoteTaskError` saying why.
 *
 * @module
 */
import type { BackendParts } from './backend-parts.js';
import { releaseHeldBudget } from './redis-budget.js';
import { RemoteTaskError } from './remote-task-error.js';
import { liveWorkers } from './worker-presence.js';
import { lapseMs, unstartedMs } from './worker-lapse.js';

/** What {@link watchJob} asks of the launcher following a job. @internal */
export interface JobWatchHooks {
  /** Whether the child's first event came (its worker started it). */
  readonly started: () => boolean;
  /** Fails the child's stream. */
  readonly fail: (e: unknown) => void;
  /** Stops the job wherever it is (after a failure: no worker may start it then). */
  readonly cancel: () => void;
  /** The launcher's count of the workers pulling from the queue. */
  readonly workers: WorkersPulling;
}

/**
 * Fails the run when no worker will run the job: the worker that runs it holds BullMQ's
 * lock on the job no more, and has not ended its log (it died: the lock is its heartbeat,
 * which lapses two stall intervals after its last renewal, `lapseMs`), whether it started the
 * job or not; a worker took it, holds its lock, and wrote nothing to its log for four stall
 * intervals since this launcher saw it taken (`unstartedMs`: not a worker of ours, or wedged;
 * a lock held is not enough, such a taker would be waited for for ever); it left the queue
 * unstarted; or it waits while no worker at all pulls from the queue, for a stall interval. A
 * busy queue with live workers is waited for, however long.
 *
 * Not one stall interval: a live worker whose event loop lags (a flood of tasks keeps it busy)
 * renews its lock and starts a job it took late, and one interval failed such tasks by the
 * dozen. So a dead worker is found within two stall intervals and a quarter (the check's
 * period), a live taker that never starts within four and a quarter, and the stall interval
 * must exceed the worst lag of a worker's event loop. Whether a taken job started is read from
 * its log in Redis, not only from this launcher's reader, which lags too. Checks every quarter
 * stall interval; returns the timer (cleared by its caller once it stops following the child).
 *
 * @internal
 */
export function watchJob(parts: BackendParts, logId: string, hooks: JobWatchHooks): NodeJS.Timeout {
  const { started, fail, cancel, workers } = hooks;
  const { redis, keys, stallMs, eventLog } = parts;
  const lapse = lapseMs(stallMs);
  const unstarted = unstartedMs(stallMs);
  const locked = async (): Promise<boolean> => (await redis.exists(keys.jobLock(logId))) === 1;
  // Its worker wrote past the open marker (its first event or its end), whether or not this
  // launcher's reader got there yet; once seen, the job is judged by its lock. Read only when
  // the lock is missing or at the unstarted bound: a lock held says its taker lives.
  let written = false;
  const wrote = async (): Promise<boolean> => (written ||= (await redis.xlen(keys.log(logId))) > 1);
  let checking = false;
  let takenAt: number | undefined;
  let aloneAt: number | undefined;
  const give = async (why: string): Promise<void> => {
    clearInterval(timer);
    // What the worker's requests held of the pool comes back before the parent hears of
    // the failure: its next request, or a sibling's, may need it (Redis gone: nothing to give back to).
    await releaseHeldBudget(redis, keys, logId).catch(() => undefined);
    fail(new RemoteTaskError(why));
    cancel(); // out of the queue: no worker may start it after it failed here
  };
  const check = async (): Promise<void> => {
    if (started() || written) {
      // Its end written, the lock released: the end is on its way to this launcher's reader.
      if ((await locked()) || (await eventLog.ended(logId))) return;
      return give(`the worker running it stopped: no heartbeat for ${lapse} ms (it was killed, or lost its connection to Redis)`);
    }
    const state = await (await parts.queue()).getJobState(logId);
    if (state === 'active') {
      takenAt ??= Date.now();
      // Its taker lives (holds the lock): whether it started matters only once it held the job
      // unstarted too long (not a worker of ours, or wedged: a bound, longer, as a live worker
      // busy with a flood may start what it took late). Its log is read then, not every check:
      // a live taker slow to write its first event cost an XLEN each quarter interval.
      if (await locked()) {
        if (Date.now() - takenAt <= unstarted || (await wrote())) return;
        return give(`a worker took it and stopped before starting it (no event from it for ${unstarted} ms, though it holds the job)`);
      }
      // No lock: started, it is judged by its lock and its log from the next check on...
      if (await wrote()) return;
      // ... else its taker died before starting it (the lock lapses two stall intervals after its last renewal).
      return give(`a worker took it and stopped before starting it: no heartbeat for ${lapse} ms (it was killed, or lost its connection to Redis)`);
    }
    takenAt = undefined;
    if (state === 'unknown' || state === 'completed' || state === 'failed') {
      // A job run and ended before this launcher's reader caught up: its entries are on their way.
      if (!started() && !(await eventLog.ended(logId)) && !(await wrote())) await give('it left the queue without a worker starting it (the worker that took it stopped)');
      return;
    }
    if ((await workers.count()) !== 0) {
      aloneAt = undefined;
      return;
    }
    aloneAt ??= Date.now();
    if (Date.now() - aloneAt > stallMs) {
      await give(`no worker is pulling tasks from this Redis (prefix "${keys.prefix}") for ${stallMs} ms: start one with \`rxharness worker --redis URL --prefix ${keys.prefix}\``);
    }
  };
  const timer = setInterval(
    () => {
      if (checking) return;
      checking = true;
      check()
        .catch(fail)
        .finally(() => (checking = false));
    },
    Math.max(10, Math.floor(stallMs / 4)),
  );
  return timer;
}

/**
 * How many workers pull from the queue: those that beat within a stall interval (their own
 * presence, not BullMQ's `getWorkersCount`, whose `CLIENT LIST` hosted Redis services often
 * refuse), asked at most once per quarter stall interval for all of a launcher's waiting
 * tasks; undefined when Redis fails to say: then a waiting task waits for the next check.
 *
 * @internal
 */
export class WorkersPulling {
  #last: { readonly at: number; readonly count: Promise<number | undefined> } | undefined;

  constructor(private readonly parts: BackendParts) {}

  /** The count, asked anew once the last answer is a quarter stall interval old. */
  count(): Promise<number | undefined> {
    const now = Date.now();
    if (!this.#last || now - this.#last.at > this.parts.stallMs / 4) {
      const count = liveWorkers(this.parts).catch(() => undefined);
      this.#last = { at: now, count };
    }
    return this.#last.count;
  }
}
