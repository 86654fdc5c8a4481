import { DeletedConversationError } from './deleted-conversation-error.js';
import type { TaskSessionInfo } from './session-store.js';

/** How many deleted conversations a store remembers (beyond that, the oldest is forgotten: a save for it is taken again). */
const MAX_DELETED = 10_000;
/** How many task sessions a store remembers saving (beyond that, deleting one is remembered as a conversation's). */
const MAX_TASKS = 10_000;

/**
 * The conversations a `FileSessionStore` or `MemorySessionStore` was asked to delete in this
 * process and that have not been written since, so that a task saved for one of them as its
 * conversation (a save asked after the delete) is refused rather than left behind: it would
 * outlive its conversation, which a new conversation of the id would then own and could
 * resume. Noted as the calls are asked, in the order the store's queues run them: a delete
 * marks the id, an append or a compaction of it (a new conversation taking the id, which a
 * run writes before it starts any task) clears it. Both stores keep it, so they refuse alike.
 *
 * The delete of a task session this store saved is not marked: a task session is never a
 * conversation (every task's owner is its conversation, never another task), and an ephemeral
 * run deletes each of its tasks' sessions as it ends, so marking them would let a flood of
 * such deletes push the deleted conversations out of the bounded memory, after which a late
 * task save for one would be kept again.
 */
export class DeletedConversations {
  /** Deleted conversations, oldest first (a Set keeps insertion order). */
  private readonly ids = new Set<string>();
  /** Task sessions saved and not deleted since, oldest first. */
  private readonly tasks = new Set<string>();

  /**
   * The error refusing the save of `info` when its conversation was deleted and not written
   * since; `undefined` when it may be saved, and then its task is remembered as a task session.
   * Read defensively: a value that is no task info (no `ownerSessionId`) is for the store's own checks.
   */
  refusal(info: TaskSessionInfo): DeletedConversationError | undefined {
    const { taskId, ownerSessionId } = (info as Partial<TaskSessionInfo> | undefined) ?? {};
    if (typeof ownerSessionId !== 'string') return undefined;
    if (this.ids.has(ownerSessionId)) return new DeletedConversationError(String(taskId), ownerSessionId);
    // A task naming itself as its owner is no run's: its delete stays marked, as a conversation's.
    if (typeof taskId === 'string' && taskId !== ownerSessionId) remember(this.tasks, taskId, MAX_TASKS);
    return undefined;
  }

  /** Notes that `sessionId` is being deleted: marked, unless it is a task session saved by the store. */
  deleted(sessionId: string): void {
    if (this.tasks.delete(sessionId)) return;
    remember(this.ids, sessionId, MAX_DELETED);
  }

  /** Notes that `sessionId` is being written (anew, when it was deleted). */
  written(sessionId: string): void {
    this.ids.delete(sessionId);
  }
}

/** Adds `id` as the newest of `ids`, forgetting the oldest beyond `max`. */
function remember(ids: Set<string>, id: string, max: number): void {
  ids.delete(id);
  if (ids.size >= max) ids.delete(ids.values().next().value!);
  ids.add(id);
}
