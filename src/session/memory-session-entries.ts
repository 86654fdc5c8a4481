import type { ChatMessage } from '../model/chat-message.js';
import type { TaskOwnership } from './deleted-conversations.js';
import { DroppedTaskMarks } from './dropped-task-marks.js';
import { MemorySessionBytes, messagesBytes } from './memory-session-bytes.js';
import { MemorySessionIndex } from './memory-session-index.js';
import type { MemorySessionBounds } from './memory-session-options.js';
import type { SessionSummary, TaskSessionInfo } from './session-store.js';

/**
 * What a `MemorySessionStore` holds of its sessions (messages, archives, task info) and how it
 * stays bounded: least recently used first in each `Map` (which keeps insertion order), the
 * oldest dropped beyond the counts and bytes. Apart from the store, which adds what is not
 * bounded with them (grants, deleted conversations, claims) and the public contract.
 */
export class MemorySessionEntries {
  /** Sessions, least recently used first. */
  private readonly sessions = new Map<string, ChatMessage[]>();
  /** Task sessions, least recently used first. */
  private readonly tasks = new Map<string, TaskSessionInfo>();
  /** The task sessions dropped past the bounds (ids only, bounded): their delete is still a task's. */
  private readonly droppedTasks = new DroppedTaskMarks();
  /**
   * The archive of each compacted session: the messages compactions replaced, and how many
   * of the session's messages are accounted for by it (the compacted ones; later appends are not).
   */
  private readonly archives = new Map<string, { readonly messages: ChatMessage[]; live: number }>();
  /** Each session's bytes (messages and archive), and their sum. */
  private readonly bytes = new MemorySessionBytes();
  /** Each session's title and last activity, for `list`. */
  private readonly index = new MemorySessionIndex();

  constructor(
    private readonly bounds: MemorySessionBounds,
    /** Called for each id dropped, by an eviction or a delete: the store forgets what it keeps of it beside these. */
    private readonly dropped: (sessionId: string) => void,
    /** Whether a run holds the session now: never evicted then (its run would write on to an empty session). */
    private readonly held: (sessionId: string) => boolean = () => false,
  ) {}

  /** The session's messages (a copy), marked as just used. */
  load(sessionId: string): readonly ChatMessage[] {
    const list = this.sessions.get(sessionId);
    this.touch(sessionId, list);
    return list?.slice() ?? [];
  }

  /** Appends to the session (creating it, and dropping the least recently used beyond the bounds). */
  append(sessionId: string, messages: readonly ChatMessage[]): void {
    const list = this.sessions.get(sessionId);
    this.bytes.add(sessionId, messagesBytes(messages));
    this.index.written(sessionId, messages);
    if (list) {
      list.push(...messages);
      this.touch(sessionId, list);
    } else {
      this.sessions.set(sessionId, messages.slice());
      this.touch(sessionId, undefined);
    }
    this.evict(sessionId);
  }

  /** Replaces a session's messages (a compaction), archiving first what the archive does not hold yet. */
  replace(sessionId: string, messages: readonly ChatMessage[]): void {
    const current = this.sessions.get(sessionId) ?? [];
    const archive = this.archives.get(sessionId) ?? { messages: [], live: 0 };
    archive.messages.push(...current.slice(archive.live));
    archive.live = messages.length;
    this.archives.set(sessionId, archive);
    this.index.written(sessionId, messages);
    if (this.sessions.has(sessionId)) this.sessions.set(sessionId, messages.slice());
    else this.append(sessionId, messages);
    this.touch(sessionId, this.sessions.get(sessionId));
    const held = messagesBytes(this.sessions.get(sessionId) ?? []) + messagesBytes(archive.messages);
    this.bytes.add(sessionId, held - this.bytes.of(sessionId));
    this.evict(sessionId);
  }

  /** The whole transcript: the archive, then what was appended since the last compaction. */
  loadArchive(sessionId: string): readonly ChatMessage[] {
    const current = this.sessions.get(sessionId) ?? [];
    const archive = this.archives.get(sessionId);
    return archive ? [...archive.messages, ...current.slice(archive.live)] : current.slice();
  }

  /** Keeps a task's info as the most recently used, dropping the oldest task sessions beyond `maxTaskSessions`. */
  saveTask(info: TaskSessionInfo): void {
    this.tasks.delete(info.taskId);
    this.tasks.set(info.taskId, info);
    this.droppedTasks.forget(info.taskId);
    this.evictTasks(info.taskId);
  }

  /**
   * Keeps to the bounds again once a run gave its session up: the sessions runs hold are
   * spared, so the store may exceed its bounds by as many sessions as runs hold at once.
   */
  trim(): void {
    this.evictTasks(undefined);
    this.evict(undefined);
  }

  /** The task info held for `taskId`. */
  task(taskId: string): TaskSessionInfo | undefined {
    return this.tasks.get(taskId);
  }

  /** What a delete of `sessionId` settles with: its task info, or the mark of a task dropped past the bounds. */
  taskRecord(sessionId: string): TaskOwnership | undefined {
    return this.tasks.get(sessionId) ?? this.droppedTasks.record(sessionId);
  }

  /** Drops the tasks held whose conversation is `sessionId` (one pass: every delete asks, and thousands of tasks may be held), and their marks. */
  dropTasksOf(sessionId: string): void {
    for (const [taskId, info] of this.tasks) if (info.ownerSessionId === sessionId) this.drop(taskId);
    this.droppedTasks.forgetTasksOf(sessionId);
  }

  /** The conversations held (task sessions left out), as `list` names them. */
  conversations(): SessionSummary[] {
    const summaries: SessionSummary[] = [];
    for (const sessionId of this.sessions.keys()) if (!this.tasks.has(sessionId)) summaries.push(this.index.summary(sessionId));
    return summaries;
  }

  /** About how many bytes the sessions hold. */
  get heldBytes(): number {
    return this.bytes.total;
  }

  /** How many sessions are held. */
  get size(): number {
    return this.sessions.size;
  }

  /** Forgets one session (an eviction: a conversation past the bounds keeps its tasks, bounded on their own). */
  drop(sessionId: string): void {
    this.bytes.drop(sessionId);
    this.sessions.delete(sessionId);
    this.archives.delete(sessionId);
    this.index.forget(sessionId);
    this.tasks.delete(sessionId);
    this.droppedTasks.forget(sessionId);
    this.dropped(sessionId);
  }

  /** Drops one session past the bounds; a task session stays marked as one (`DroppedTaskMarks`). */
  private evictOne(sessionId: string): void {
    const info = this.tasks.get(sessionId);
    this.drop(sessionId);
    if (info) this.droppedTasks.mark(info);
  }

  /** Drops the least recently used sessions beyond the count and the bytes (never `keep`, nor one a run holds). */
  private evict(keep: string | undefined): void {
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.bounds.maxSessions && this.bytes.total <= this.bounds.maxBytes) break;
      if (oldest !== keep && !this.held(oldest)) this.evictOne(oldest);
    }
  }

  /**
   * Drops the least recently used task sessions beyond `maxTaskSessions`, never one a run
   * holds, nor `keep` (the one just saved, about to run) unless the bound keeps none.
   */
  private evictTasks(keep: string | undefined): void {
    const spared = this.bounds.maxTaskSessions === 0 ? undefined : keep;
    for (const oldest of this.tasks.keys()) {
      if (this.tasks.size <= this.bounds.maxTaskSessions) break;
      if (oldest !== spared && !this.held(oldest)) this.evictOne(oldest);
    }
  }

  /** Marks a session as just used, so it is the last to be dropped. */
  private touch(sessionId: string, list: ChatMessage[] | undefined): void {
    if (list) {
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, list);
    }
    const info = this.tasks.get(sessionId);
    if (!info) return;
    this.tasks.delete(sessionId);
    this.tasks.set(sessionId, info);
  }
}
