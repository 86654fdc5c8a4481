import type { TaskInfo, TaskTracker } from '../delegation/task-tracker.js';
import { DeletedConversationError } from '../session/deleted-conversation-error.js';
import type { MaybePromise, SessionStore, TaskSessionInfo } from '../session/session-store.js';

/** How many of a conversation's newest tasks a claim checks: enough to tell a deleted conversation, few enough to read at every run. */
export const CHECKED_TASKS = 16;

/** What the engine's store view asks before a run of a conversation and before a background task's write. */
export interface DeletedElsewhere {
  /** Called once a claim of `sessionId` is granted: forgets the conversation when another engine deleted it (see {@link deletedElsewhere}); the claim is answered once this settles. */
  claimed(sessionId: string): MaybePromise<void>;
  /** Called before a write of `sessionId`: refuses it when it is a background task of this engine whose conversation was deleted. */
  beforeWrite(sessionId: string): MaybePromise<void>;
}

/**
 * Tells the engine that a conversation it holds tasks of was deleted by another engine sharing
 * the store (two processes on one `FileSessionStore` folder): that delete stopped none of this
 * engine's tasks and forgot none of its waiting results, so they would reach a new
 * conversation of the id. The store is the only witness: a delete removes the task info
 * (`loadTaskInfo`) of every task of the conversation.
 *
 * - When a run (or a delete, a compaction) claims a conversation, the newest
 *   {@link CHECKED_TASKS} tasks this engine knows of it are looked up. When none of them is
 *   stored any more as a task of it, it was deleted since they started (this engine starts
 *   tasks of a conversation only in runs that claimed it, so after a delete elsewhere this
 *   check is the first to see it): its background tasks are stopped and what the engine keeps
 *   of it is forgotten (`forget`), as a delete through the engine does, before the run reads
 *   its waiting results. One task session deleted on its own leaves the others stored.
 * - A background task's write of its session (it runs while nothing claims its conversation)
 *   is refused with a `DeletedConversationError` when its task info is gone or names another
 *   conversation: its transcript would come back as a conversation of its own. The task then
 *   fails, and its result is dropped at its conversation's next claim.
 *
 * Not made for a `MemorySessionStore` (its bounds drop task info: no proof of a delete; it
 * tells its deletes instead, `deletedInProcess`), nor with a backend (Redis marks a deleted
 * conversation's tasks itself), nor for a store without `loadTaskInfo`: the caller passes
 * `undefined` then.
 *
 * @example
 * ```ts
 * const guard = deletedElsewhere(tasks, store, async (id) => { await stopTasks(id); forget(id); });
 * ```
 */
export function deletedElsewhere(tasks: TaskTracker, store: SessionStore, forgetDeleted: (sessionId: string) => Promise<void>): DeletedElsewhere {
  const infoOf = (taskId: string): Promise<TaskSessionInfo | undefined | 'unreadable'> =>
    // A task file that cannot be read (planted, cut) still says the delete did not remove it.
    Promise.resolve()
      .then(() => store.loadTaskInfo?.(taskId))
      .catch(() => 'unreadable' as const);
  const gone = (info: TaskSessionInfo | undefined | 'unreadable', sessionId: string): boolean =>
    info === undefined || (info !== 'unreadable' && info.ownerSessionId !== sessionId);
  return {
    async claimed(sessionId) {
      const newest = [...tasks.list(sessionId)].sort(byStartDescending).slice(0, CHECKED_TASKS);
      if (newest.length === 0) return;
      const infos = await Promise.all(newest.map((t) => infoOf(t.taskId)));
      if (infos.every((info) => gone(info, sessionId))) await forgetDeleted(sessionId);
    },
    beforeWrite(taskId) {
      const task = tasks.get(taskId);
      // Only a background task writes while its conversation is not claimed: the others are checked at the claim.
      if (!task?.background || (task.state !== 'running' && task.state !== 'queued')) return;
      return infoOf(taskId).then((info) => {
        if (gone(info, task.sessionId)) throw new DeletedConversationError(taskId, task.sessionId, 'task-write');
      });
    },
  };
}

function byStartDescending(a: TaskInfo, b: TaskInfo): number {
  return b.startedAt - a.startedAt;
}
