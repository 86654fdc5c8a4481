import { DeletedConversationError } from './deleted-conversation-error.js';
import type { TaskSessionInfo } from './session-store.js';

/** How many deleted conversations a store remembers (beyond that, the oldest is forgotten: a save for it is taken again). */
const MAX_DELETED = 10_000;

/** What a delete needs of a task's record to tell a task session: its id and its conversation. */
export type TaskOwnership = Pick<TaskSessionInfo, 'taskId' | 'ownerSessionId'>;

/**
 * Settles one delete with what the store's own records held for its id at the delete's turn:
 * the task info saved under that id (or, for a task the memory store dropped past its bounds,
 * its id and conversation), or `undefined` when it holds none.
 */
export type SettleDelete = (record: TaskOwnership | undefined) => void;

/**
 * The conversations a `FileSessionStore` or `MemorySessionStore` was asked to delete in this
 * process and that have not been written since, so that a task saved for one of them as its
 * conversation (a save asked after the delete) is refused rather than left behind: it would
 * outlive its conversation, which a new conversation of the id would then own and could
 * resume. Noted as the calls are asked, in the order the store's queues run them: a delete
 * marks the id, an append or a compaction of it (a new conversation taking the id, which a
 * run writes before it starts any task) clears it. Both stores keep it, so they refuse alike.
 *
 * The delete of a task session is not remembered: an ephemeral run deletes each of its tasks'
 * sessions as it ends, and a flood of such deletes must not push the deleted conversations
 * out of the bounded memory (a late task save for one would be kept again). Whether an id is
 * a task session is read from the store's own records at the delete ({@link SettleDelete}),
 * not from a list of the saves it made: a task removed with its conversation is no task
 * session any more (a conversation may take its id), and a task kept for long stays one
 * however many others are saved meanwhile. Until the store settles it, a delete counts as a
 * conversation's, outside the bound.
 */
export class DeletedConversations {
  /** Deletes settled as conversations', oldest first (a Set keeps insertion order). */
  private readonly ids = new Set<string>();
  /** Deletes asked and not settled yet, each by its mark (the latest delete of the id). */
  private readonly pending = new Map<string, object>();

  /** The error refusing the save of `info` when its conversation was deleted and not written since; `undefined` when it may be saved. */
  refusal(info: TaskSessionInfo): DeletedConversationError | undefined {
    // Read defensively: a value that is no task info (no `ownerSessionId`) is for the store's own checks.
    const { taskId, ownerSessionId } = (info as Partial<TaskSessionInfo> | undefined) ?? {};
    if (typeof ownerSessionId !== 'string' || !this.isDeleted(ownerSessionId)) return undefined;
    return new DeletedConversationError(String(taskId), ownerSessionId);
  }

  /**
   * Notes that `sessionId` is being deleted: refused as a task's conversation from now on.
   * The store calls what this returns at the delete's turn (at once for a store that answers
   * synchronously), with its record of the id then: a task session's delete is forgotten.
   */
  deleted(sessionId: string): SettleDelete {
    const mark = {};
    this.pending.set(sessionId, mark);
    return (record) => {
      // Written, or deleted again, since: a later call says what the id is now.
      if (this.pending.get(sessionId) !== mark) return;
      this.pending.delete(sessionId);
      if (!this.isTaskSession(sessionId, record)) remember(this.ids, sessionId);
    };
  }

  /** Notes that `sessionId` is being written (anew, when it was deleted). */
  written(sessionId: string): void {
    this.ids.delete(sessionId);
    this.pending.delete(sessionId);
  }

  private isDeleted(sessionId: string): boolean {
    return this.ids.has(sessionId) || this.pending.has(sessionId);
  }

  /**
   * Whether `record` shows `sessionId` as a task session: a task of a conversation, which
   * itself is not deleted (its tasks go with it).
   */
  private isTaskSession(sessionId: string, record: TaskOwnership | undefined): boolean {
    return isTaskRecord(sessionId, record) && !this.isDeleted(record.ownerSessionId);
  }
}

/**
 * Whether `record`, what a store holds under `sessionId`, is the info of a task of another
 * session: its conversation (a task naming itself as its owner is no run's). Such a session
 * owns no tasks, since every task's owner is its conversation, never another task.
 */
export function isTaskRecord(sessionId: string, record: TaskOwnership | undefined): record is TaskOwnership {
  const owner = record?.ownerSessionId;
  return record?.taskId === sessionId && typeof owner === 'string' && owner !== sessionId;
}

/** Adds `id` as the newest of `ids`, forgetting the oldest beyond the bound. */
function remember(ids: Set<string>, id: string): void {
  ids.delete(id);
  if (ids.size >= MAX_DELETED) ids.delete(ids.values().next().value!);
  ids.add(id);
}
