import { valueBytes } from '../events/value-bytes.js';
import type { ChatMessage } from '../model/chat-message.js';

/** About how many bytes each session of a `MemorySessionStore` holds (messages and archive), and their sum, for `maxBytes`. */
export class MemorySessionBytes {
  private readonly bytes = new Map<string, number>();
  private sum = 0;

  /** The sum over the sessions. */
  get total(): number {
    return this.sum;
  }

  /** What `sessionId` holds now. */
  of(sessionId: string): number {
    return this.bytes.get(sessionId) ?? 0;
  }

  /** Counts `added` more bytes of `sessionId` (fewer when negative). */
  add(sessionId: string, added: number): void {
    this.bytes.set(sessionId, this.of(sessionId) + added);
    this.sum += added;
  }

  /** Uncounts a session dropped. */
  drop(sessionId: string): void {
    this.sum -= this.of(sessionId);
    this.bytes.delete(sessionId);
  }
}

/**
 * About how many bytes messages hold (`valueBytes`: their strings at two bytes a character,
 * plus a little per field). Walked, not serialised: a 1 MB prompt costs a length read, not a
 * 1 MB `JSON.stringify`, on every append.
 */
export function messagesBytes(messages: readonly ChatMessage[]): number {
  let bytes = 0;
  for (let i = 0; i < messages.length; i++) bytes += valueBytes(messages[i]);
  return bytes;
}
