import type { ChatMessage } from '../model/chat-message.js';
import type { SessionStore, TaskSessionInfo } from './session-store.js';

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
   * How many delegated tasks' sessions to keep for resume (default 1,000); the least recently
   * used beyond that are dropped, so a long-lived engine does not grow with every task.
   * Conversations of the main agent are never dropped.
   */
  readonly maxTaskSessions?: number;
}

/**
 * The default {@link SessionStore}: sessions in a `Map`, gone when the process ends.
 * It answers synchronously.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionStore();
 * sessions.append('s1', [{ role: 'user', content: 'hi' }]);
 * sessions.load('s1').length; // 1
 * ```
 */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, ChatMessage[]>();
  /** Task sessions, least recently used first (a Map keeps insertion order). */
  private readonly tasks = new Map<string, TaskSessionInfo>();
  private readonly maxTaskSessions: number;

  constructor(options: MemorySessionStoreOptions = {}) {
    const max = options.maxTaskSessions ?? 1000;
    if (!Number.isInteger(max) || max < 0) throw new RangeError(`MemorySessionStore: maxTaskSessions must be an integer >= 0, got ${max}`);
    this.maxTaskSessions = max;
  }

  load(sessionId: string): readonly ChatMessage[] {
    this.touch(sessionId);
    return this.sessions.get(sessionId)?.slice() ?? [];
  }

  append(sessionId: string, messages: readonly ChatMessage[]): void {
    this.touch(sessionId);
    const list = this.sessions.get(sessionId);
    if (list) list.push(...messages);
    else this.sessions.set(sessionId, messages.slice());
  }

  saveTaskInfo(info: TaskSessionInfo): void {
    this.tasks.delete(info.taskId);
    this.tasks.set(info.taskId, info);
    for (const oldest of this.tasks.keys()) {
      if (this.tasks.size <= this.maxTaskSessions) break;
      this.delete(oldest);
    }
  }

  loadTaskInfo(taskId: string): TaskSessionInfo | undefined {
    return this.tasks.get(taskId);
  }

  /** Forgets a session (and its task info). */
  delete(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.tasks.delete(sessionId);
  }

  /** How many sessions are held. */
  get size(): number {
    return this.sessions.size;
  }

  /** Marks a task session as just used, so it is the last to be dropped. */
  private touch(sessionId: string): void {
    const info = this.tasks.get(sessionId);
    if (!info) return;
    this.tasks.delete(sessionId);
    this.tasks.set(sessionId, info);
  }
}
