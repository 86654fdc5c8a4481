import type { TaskInfo } from '../delegation/task-tracker.js';
import type { SharedTasks } from './shared-tasks.js';
import { isLive } from './task-record.js';
import { lapseMs } from './worker-lapse.js';

/**
 * Cancels `tasks` that other engines run (or hold queued) by the cancel each
 * `SharedTasks.cancel` sends, queued ones first, and resolves once each is recorded settled,
 * each wait bounded by the silence after which an engine is taken for dead (`lapseMs` of the
 * stall interval `stallMs`, {@link settledElsewhere}). The order matters: the engine
 * holding them serves the cancels in order, and a slot freed by a running task's cancel
 * would otherwise start a queued task (a child run, a model request) only to cancel it.
 *
 * @internal
 */
export async function cancelElsewhere(shared: SharedTasks, tasks: readonly TaskInfo[], stallMs: number): Promise<void> {
  const queuedFirst = [...tasks].sort((a, b) => Number(b.state === 'queued') - Number(a.state === 'queued'));
  const waits = queuedFirst.filter((t) => shared.cancel(t.taskId)).map((t) => settledElsewhere(shared, t.taskId, stallMs));
  await Promise.all(waits);
}

/**
 * Resolves with another engine's task once it is recorded settled (undefined: it is not
 * known, or forgotten), however long that takes.
 *
 * @internal
 */
export function whenSettledElsewhere(shared: SharedTasks, taskId: string): Promise<TaskInfo | undefined> {
  return new Promise((resolve) => {
    const settled = (info: TaskInfo | undefined): boolean => {
      if (info && isLive(info)) return false;
      stop();
      resolve(info);
      return true;
    };
    const stop = shared.watch((info) => void (info.taskId === taskId && settled(info)));
    settled(shared.get(taskId));
  });
}

/**
 * Resolves once another engine's task is recorded settled; its watch stops then or at the
 * lapse (`lapseMs(stallMs)`), whichever is first. At that bound, a foreground task (a queued
 * one too) whose engine has no heartbeat is recorded failed first, naming why (as the
 * dead-owner sweep would, a beat or so later): the cancel reached nobody, and the caller finds
 * the task ended rather than still live. The bound is the lapse, not less: an engine killed
 * just before the cancel still has its heartbeat that long (its last beat's key lives
 * `lapseMs`), and a shorter wait gave up while it still looked alive.
 */
function settledElsewhere(shared: SharedTasks, taskId: string, stallMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stop();
      clearTimeout(timer);
      resolve();
    };
    const giveUp = (): void => {
      shared
        .reapIfOwnerGone(taskId, stallMs)
        .catch(() => false) // Redis is away: the sweep reaps it once it is back
        .finally(done);
    };
    const timer = setTimeout(giveUp, lapseMs(stallMs));
    const stop = shared.watch((info) => void (info.taskId === taskId && !isLive(info) && done()));
    const now = shared.get(taskId);
    if (!now || !isLive(now)) done();
  });
}
