import type { TaskOwnership } from './deleted-conversations.js';
import { DroppedTaskMarks } from './dropped-task-marks.js';
import type { TaskSessionInfo } from './session-store.js';

/**
 * Which of a `MemorySessionStore`'s sessions are task sessions: the task info held (least
 * recently used first, bounded by `maxTaskSessions` in `MemorySessionEntries`), and a mark of
 * each task session dropped past the bounds (`DroppedTaskMarks`). A dropped task may still be
 * running and write its session again: the mark keeps that session a task's (never listed as
 * a conversation, its delete a task session's) until the task, or its conversation, is deleted.
 */
export class MemorySessionTasks {
  /** Task info by task id, least recently used first (a Map keeps insertion order). */
  private readonly infos = new Map<string, TaskSessionInfo>();
  /** The task sessions dropped past the bounds (ids only, bounded). */
  private readonly marks = new DroppedTaskMarks();

  /** Keeps a task's info as the most recently used (a dropped task saved again is held again). */
  save(info: TaskSessionInfo): void {
    this.infos.delete(info.taskId);
    this.infos.set(info.taskId, info);
    this.marks.forget(info.taskId);
  }

  /** The task info held for `taskId`. */
  get(taskId: string): TaskSessionInfo | undefined {
    return this.infos.get(taskId);
  }

  /** The task's id and conversation: from its info held, or from its mark when it was dropped. */
  record(sessionId: string): TaskOwnership | undefined {
    return this.infos.get(sessionId) ?? this.marks.record(sessionId);
  }

  /** Whether `sessionId` is a task session: held, or dropped past the bounds and marked. */
  isTask(sessionId: string): boolean {
    return this.record(sessionId) !== undefined;
  }

  /** Marks a held task as just used. */
  touch(sessionId: string): void {
    const info = this.infos.get(sessionId);
    if (!info) return;
    this.infos.delete(sessionId);
    this.infos.set(sessionId, info);
  }

  /** The infos held of the tasks of `ownerSessionId` (one pass over those held; dropped ones have no info left). */
  infosOf(ownerSessionId: string): TaskSessionInfo[] {
    const owned: TaskSessionInfo[] = [];
    for (const info of this.infos.values()) if (info.ownerSessionId === ownerSessionId) owned.push(info);
    return owned;
  }

  /** The held tasks' ids, least recently used first. */
  ids(): IterableIterator<string> {
    return this.infos.keys();
  }

  /** How many tasks' info is held. */
  get size(): number {
    return this.infos.size;
  }

  /**
   * Forgets `sessionId` as a task. An eviction (`evicted`) keeps a task session marked, one
   * held or one marked before (dropped, written again by its running task, dropped again); a
   * delete forgets the mark too.
   */
  drop(sessionId: string, evicted: boolean): void {
    const record = evicted ? this.record(sessionId) : undefined;
    this.infos.delete(sessionId);
    this.marks.forget(sessionId);
    if (record) this.marks.mark(record);
  }

  /**
   * The tasks of `ownerSessionId` (one pass over those held: every delete asks, and thousands
   * may be held), those dropped past the bounds too (their task may still run, and have written
   * its session again), forgetting the marks of the dropped ones: the conversation is deleted.
   */
  takeTasksOf(ownerSessionId: string): string[] {
    const owned: string[] = [];
    for (const [taskId, info] of this.infos) if (info.ownerSessionId === ownerSessionId) owned.push(taskId);
    return [...owned, ...this.marks.forgetTasksOf(ownerSessionId)];
  }
}
