import type { ChatMessage } from '../model/chat-message.js';
import { MemorySessionArchives } from './memory-session-archives.js';
import { MemorySessionBytes, messagesBytes } from './memory-session-bytes.js';
import { MemorySessionIndex } from './memory-session-index.js';
import type { MemorySessionBounds } from './memory-session-options.js';
import { MemorySessionTasks } from './memory-session-tasks.js';
import type { SessionSummary, TaskSessionInfo } from './session-store.js';

/**
 * What a `MemorySessionStore` holds of its sessions (messages, archives, task info) and how it
 * stays bounded: least recently used first in each `Map` (which keeps insertion order), the
 * oldest dropped beyond the counts and bytes. Apart from the store, which adds what is not
 * bounded with them (grants, deleted conversations, claims) and the public contract. Which
 * sessions are tasks' is `MemorySessionTasks`; the compacted ones' archives `MemorySessionArchives`.
 */
export class MemorySessionEntries {
  /** Sessions, least recently used first. */
  private readonly sessions = new Map<string, ChatMessage[]>();
  /** Task sessions (held, least recently used first, or dropped past the bounds and marked); saved through {@link saveTask}, which bounds them. */
  readonly tasks = new MemorySessionTasks();
  /** The archive of each compacted session. */
  private readonly archives = new MemorySessionArchives();
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
    const archived = this.archives.compacted(sessionId, this.sessions.get(sessionId) ?? [], messages);
    this.index.written(sessionId, messages);
    if (this.sessions.has(sessionId)) this.sessions.set(sessionId, messages.slice());
    else this.append(sessionId, messages);
    this.touch(sessionId, this.sessions.get(sessionId));
    const held = messagesBytes(this.sessions.get(sessionId) ?? []) + messagesBytes(archived);
    this.bytes.add(sessionId, held - this.bytes.of(sessionId));
    this.evict(sessionId);
  }

  /** The whole transcript: the archive, then what was appended since the last compaction. */
  loadArchive(sessionId: string): readonly ChatMessage[] {
    return this.archives.transcript(sessionId, this.sessions.get(sessionId) ?? []);
  }

  /** Keeps a task's info as the most recently used, dropping the oldest task sessions beyond `maxTaskSessions`. */
  saveTask(info: TaskSessionInfo): void {
    this.tasks.save(info);
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

  /**
   * Forgets a session deleted, and the tasks it started, those dropped past the bounds too
   * (marked): a conversation may take their ids. Answers those tasks' ids.
   */
  delete(sessionId: string): string[] {
    this.forget(sessionId, false);
    const taskIds = this.tasks.takeTasksOf(sessionId);
    for (const taskId of taskIds) this.forget(taskId, false);
    return taskIds;
  }

  /** The conversations held (task sessions left out, those dropped past the bounds and written again too), as `list` names them. */
  conversations(): SessionSummary[] {
    const summaries: SessionSummary[] = [];
    for (const sessionId of this.sessions.keys()) if (!this.tasks.isTask(sessionId)) summaries.push(this.index.summary(sessionId));
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

  /**
   * Forgets one session; an eviction (`evicted`) keeps a task session marked as one, so that
   * its task, still running, writes on to a task session. A conversation past the bounds
   * keeps its tasks, bounded on their own.
   */
  private forget(sessionId: string, evicted: boolean): void {
    this.bytes.drop(sessionId);
    this.sessions.delete(sessionId);
    this.archives.forget(sessionId);
    this.index.forget(sessionId);
    this.tasks.drop(sessionId, evicted);
    this.dropped(sessionId);
  }

  /** Drops the least recently used sessions beyond the count and the bytes (never `keep`, nor one a run holds). */
  private evict(keep: string | undefined): void {
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.bounds.maxSessions && this.bytes.total <= this.bounds.maxBytes) break;
      if (oldest !== keep && !this.held(oldest)) this.forget(oldest, true);
    }
  }

  /**
   * Drops the least recently used task sessions beyond `maxTaskSessions`, never one a run
   * holds, nor `keep` (the one just saved, about to run) unless the bound keeps none.
   */
  private evictTasks(keep: string | undefined): void {
    const spared = this.bounds.maxTaskSessions === 0 ? undefined : keep;
    for (const oldest of this.tasks.ids()) {
      if (this.tasks.size <= this.bounds.maxTaskSessions) break;
      if (oldest !== spared && !this.held(oldest)) this.forget(oldest, true);
    }
  }

  /** Marks a session as just used, so it is the last to be dropped. */
  private touch(sessionId: string, list: ChatMessage[] | undefined): void {
    if (list) {
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, list);
    }
    this.tasks.touch(sessionId);
  }
}
