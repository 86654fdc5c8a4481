import type { ChatMessage } from '../model/chat-message.js';
import type { SessionStore, TaskSessionInfo } from './session-store.js';

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
  private readonly tasks = new Map<string, TaskSessionInfo>();

  load(sessionId: string): readonly ChatMessage[] {
    return this.sessions.get(sessionId)?.slice() ?? [];
  }

  append(sessionId: string, messages: readonly ChatMessage[]): void {
    const list = this.sessions.get(sessionId);
    if (list) list.push(...messages);
    else this.sessions.set(sessionId, messages.slice());
  }

  saveTaskInfo(info: TaskSessionInfo): void {
    this.tasks.set(info.taskId, info);
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
}
