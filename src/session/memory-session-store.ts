import type { ChatMessage } from '../model/chat-message.js';
import type { SessionStore } from './session-store.js';

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

  load(sessionId: string): readonly ChatMessage[] {
    return this.sessions.get(sessionId)?.slice() ?? [];
  }

  append(sessionId: string, messages: readonly ChatMessage[]): void {
    const list = this.sessions.get(sessionId);
    if (list) list.push(...messages);
    else this.sessions.set(sessionId, messages.slice());
  }

  /** Forgets a session. */
  delete(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}
