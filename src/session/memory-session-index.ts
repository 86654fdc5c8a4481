import type { ChatMessage } from '../model/chat-message.js';
import type { SessionSummary } from './session-store.js';
import { sessionTitle } from './session-title.js';

/**
 * What `MemorySessionStore.list` answers from, kept as sessions are written so that listing
 * reads no transcript: each session's title and when it was last written. The file store
 * keeps the same in its summary files (`file-session-summaries.ts`).
 */
export class MemorySessionIndex {
  /** When each session last gained or replaced messages (epoch ms). */
  private readonly activity = new Map<string, number>();
  /** Each session's title. */
  private readonly titles = new Map<string, string>();

  /**
   * Notes a write of `messages`: the session is active now, never earlier than before (a
   * clock set back), so a session only moves toward the front of `list()`, which paging
   * relies on; its title is its first user message, from the first write that has one.
   */
  written(sessionId: string, messages: readonly ChatMessage[]): void {
    this.activity.set(sessionId, Math.max(Date.now(), this.activity.get(sessionId) ?? 0));
    if (!this.titles.get(sessionId)) this.titles.set(sessionId, sessionTitle(messages));
  }

  /** The session as `list` names it. */
  summary(sessionId: string): SessionSummary {
    return { sessionId, title: this.titles.get(sessionId) ?? '', lastActivityAt: this.activity.get(sessionId) ?? 0 };
  }

  /** Forgets a session dropped or deleted. */
  forget(sessionId: string): void {
    this.activity.delete(sessionId);
    this.titles.delete(sessionId);
  }
}
