import type { ChatMessage } from '../model/chat-message.js';

/** A compacted session's archive: the messages compactions replaced, and how many of the session's messages it accounts for. */
interface Archive {
  readonly messages: ChatMessage[];
  /** The session's messages the archive accounts for (the compacted ones; later appends are not). */
  live: number;
}

/**
 * The archives of a `MemorySessionStore`'s compacted sessions, so that `loadArchive` answers
 * the whole transcript: every message ever appended, those compactions replaced included.
 */
export class MemorySessionArchives {
  private readonly archives = new Map<string, Archive>();

  /**
   * Notes a compaction of `sessionId` from `current` to `replacement`: what the archive does
   * not hold yet of `current` is archived first. Answers the archive's messages (for the bytes).
   */
  compacted(sessionId: string, current: readonly ChatMessage[], replacement: readonly ChatMessage[]): readonly ChatMessage[] {
    const archive = this.archives.get(sessionId) ?? { messages: [], live: 0 };
    archive.messages.push(...current.slice(archive.live));
    archive.live = replacement.length;
    this.archives.set(sessionId, archive);
    return archive.messages;
  }

  /** The whole transcript of a session whose messages are now `current`: the archive, then what was appended since the last compaction. */
  transcript(sessionId: string, current: readonly ChatMessage[]): readonly ChatMessage[] {
    const archive = this.archives.get(sessionId);
    return archive ? [...archive.messages, ...current.slice(archive.live)] : current.slice();
  }

  /** Forgets a session dropped or deleted. */
  forget(sessionId: string): void {
    this.archives.delete(sessionId);
  }
}
