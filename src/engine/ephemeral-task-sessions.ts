import type { TaskInfo, TaskTracker } from '../delegation/task-tracker.js';
import { ephemeralLifetimes } from '../session/ephemeral-lifetimes.js';
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
 * conversations. The tasks stay readable in the tracker. While such a run may start tasks, its
 * conversation is noted in `ephemeralLifetimes`: a `FileSessionStore` seals its task sessions
 * for a random lifetime kept in the process, so deleting them writes no lifetime file.
 *
 * Called as such a run starts: from then on the ids of the tasks its conversation starts are
 * noted (the tracker forgets finished tasks past its bound, so by the run's end it may know
 * fewer); only these runs' conversations are noted. What it returns is called at the run's end.
 *
 * @example
 * ```ts
 * const begin = ephemeralTaskSessions(tasks, store);
 * const end = begin(sessionId); // as the run starts
 * end(); // at the run's end
 * ```
 */
export function ephemeralTaskSessions(tasks: TaskTracker, store: SessionStore): (sessionId: string) => () => void {
  /** Running runs' session ids: their tasks are noted as they start. */
  const live = new Set<string>();
  /** Ended runs' session ids that still have tasks running; kept only while some run. */
  const ended = new Set<string>();
  /** The tasks of those conversations, as they started. */
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
    ephemeralLifetimes.close(sessionId); // none of its tasks runs: it saves no task any more
    for (const taskId of new Set([...known.map((t) => t.taskId), ...started.take(sessionId)])) remove(taskId);
    return true;
  };
  // Completes with the tracker (engine.close), after the snapshots of the tasks it stopped.
  tasks.changes.subscribe((task) => {
    const noted = live.has(task.sessionId) || ended.has(task.sessionId);
    if (isRunning(task)) {
      if (noted) started.add(task.sessionId, task.taskId);
    } else if (ended.has(task.sessionId)) removeAll(task.sessionId);
  });
  return (sessionId) => {
    live.add(sessionId);
    // Before any task of the run is saved: a file store then seals its task sessions for a
    // lifetime kept in this process, which their delete forgets (no lifetime file per task).
    ephemeralLifetimes.open(sessionId);
    return () => {
      live.delete(sessionId);
      if (typeof store.delete === 'function' && !removeAll(sessionId)) ended.add(sessionId);
      else if (typeof store.delete !== 'function') {
        started.take(sessionId);
        ephemeralLifetimes.close(sessionId);
      }
    };
  };
}
function isRunning(task: TaskInfo): boolean {
  return task.state === 'running' || task.state === 'queued';
}
