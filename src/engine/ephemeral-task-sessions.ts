import type { TaskInfo, TaskTracker } from '../delegation/task-tracker.js';
import type { SessionStore } from '../session/session-store.js';
import { TaskIdsBySession } from './task-ids-by-session.js';

/**
 * What removes the task sessions of a run without a `sessionId` once it has ended: such a
 * run stores nothing (docs/getting-started.md, "Sessions"), yet each task it delegated wrote
 * a session (its id, its transcript) so that the run could resume it. Nobody can resume
 * them after the run (only their conversation could, and it never runs again), so they are
 * deleted from `store` (the store itself: a task's own claim may still be closing its turn)
 * once none of its tasks runs (a background task may still resume one), with those its
 * background tasks started meanwhile. Without this, a server answering one-shot calls that
 * delegate grows its file store for ever, and fills a memory store's bounds, pushing out its
 * conversations. The tasks stay readable in the tracker.
 *
 * @example
 * ```ts
 * const endEphemeral = ephemeralTaskSessions(tasks, store);
 * endEphemeral(runResult.sessionId); // at the run's end
 * ```
 */
export function ephemeralTaskSessions(tasks: TaskTracker, store: SessionStore): (sessionId: string) => void {
  /** Ended runs' session ids that still have tasks running; kept only while some run. */
  const ended = new Set<string>();
  /** Every task by conversation as it starts: the tracker may have forgotten some finished ones by the run's end. */
  const started = new TaskIdsBySession();
  const remove = (taskId: string): void => {
    try {
      void Promise.resolve(store.delete?.(taskId)).catch(() => undefined);
    } catch {
      // A store that fails keeps the task session, as it would keep any other.
    }
  };
  /** Deletes them all once none runs (a running one may still resume another); true when it did. */
  const removeAll = (sessionId: string): boolean => {
    const known = tasks.list(sessionId);
    if (known.some(isRunning)) return false;
    ended.delete(sessionId);
    for (const taskId of new Set([...known.map((t) => t.taskId), ...started.take(sessionId)])) remove(taskId);
    return true;
  };
  // Completes with the tracker (engine.close), after the snapshots of the tasks it stopped.
  tasks.changes.subscribe((task) => {
    if (isRunning(task)) started.add(task.sessionId, task.taskId);
    else if (ended.has(task.sessionId)) removeAll(task.sessionId);
  });
  return (sessionId) => {
    if (typeof store.delete === 'function' && !removeAll(sessionId)) ended.add(sessionId);
  };
}

function isRunning(task: TaskInfo): boolean {
  return task.state === 'running' || task.state === 'queued';
}
