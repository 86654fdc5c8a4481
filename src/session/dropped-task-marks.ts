import type { TaskOwnership } from './deleted-conversations.js';

/** How many dropped task sessions a `MemorySessionStore` still knows as tasks: as many as the deleted conversations it remembers. */
export const MAX_DROPPED_TASK_MARKS = 10_000;

/**
 * The task sessions a `MemorySessionStore` dropped past its bounds (`maxTaskSessions`,
 * `maxSessions`, `maxBytes`), each with its conversation: the latest
 * {@link MAX_DROPPED_TASK_MARKS} of them, the oldest forgotten first. A delete of one still
 * counts as a task session's (`DeletedConversations`): an ephemeral run deletes each of its
 * tasks' sessions as it ends, and with more than `maxTaskSessions` tasks alive those deletes
 * would otherwise count as conversations' and push a deleted conversation out of the bounded
 * memory of them (a late task save for it would be kept). Only ids are kept, never messages,
 * and nothing here lets a dropped task be resumed. A dropped task still running may write its
 * session again: marked, it is still no conversation (`list` leaves it out). A mark goes with
 * the task's delete, and with its conversation's (a conversation may then take its id).
 */
export class DroppedTaskMarks {
  /** Each dropped task's conversation, by task id, the oldest first (a Map keeps insertion order). */
  private readonly owners = new Map<string, string>();
  /** The marked tasks of each conversation, so that its delete finds them without a scan. */
  private readonly byOwner = new Map<string, Set<string>>();

  /** Notes a task session dropped past the bounds, forgetting the oldest mark beyond {@link MAX_DROPPED_TASK_MARKS}. */
  mark(info: TaskOwnership): void {
    this.forget(info.taskId);
    this.owners.set(info.taskId, info.ownerSessionId);
    let tasks = this.byOwner.get(info.ownerSessionId);
    if (!tasks) this.byOwner.set(info.ownerSessionId, (tasks = new Set()));
    tasks.add(info.taskId);
    if (this.owners.size > MAX_DROPPED_TASK_MARKS) this.forget(this.owners.keys().next().value!);
  }

  /** What a delete of `taskId` settles with: the dropped task's id and conversation, if it is marked. */
  record(taskId: string): TaskOwnership | undefined {
    const ownerSessionId = this.owners.get(taskId);
    return ownerSessionId === undefined ? undefined : { taskId, ownerSessionId };
  }

  /** Forgets the mark of `taskId` (deleted, or held again). */
  forget(taskId: string): void {
    const owner = this.owners.get(taskId);
    if (owner === undefined) return;
    this.owners.delete(taskId);
    const tasks = this.byOwner.get(owner)!;
    tasks.delete(taskId);
    if (tasks.size === 0) this.byOwner.delete(owner);
  }

  /** Forgets the marks of the tasks of `ownerSessionId` (the conversation is deleted: they go with it), answering their ids. */
  forgetTasksOf(ownerSessionId: string): string[] {
    const taskIds = [...(this.byOwner.get(ownerSessionId) ?? [])];
    for (const taskId of taskIds) this.owners.delete(taskId);
    this.byOwner.delete(ownerSessionId);
    return taskIds;
  }
}
