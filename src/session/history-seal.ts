import type { ChatMessage } from '../model/chat-message.js';
import type { GrantSeal } from './grant-seal.js';

/** What the lines of a session's history file hold, as {@link HistorySeal.read} finds them. */
export interface ReadHistory {
  /** Every message the lines hold, in order, sealed or not (the seal taken off). */
  readonly messages: ChatMessage[];
  /**
   * The lines (1-based) holding a message without a valid seal for this folder and session:
   * planted, copied from another session or folder, changed, sealed with another key, or
   * written before history was sealed. None when there is no usable key to check with.
   */
  readonly unsealedLines: readonly number[];
}

/**
 * Seals the messages a `FileSessionStore` keeps in its folder, which lies in the workspace,
 * where a cloned repository can ship a session file: each line carries, as `mac`, an
 * HMAC-SHA256 under the user's key (the grant key, through {@link GrantSeal.macs}: one key,
 * one MAC path) of the folder's real path, the session and the message, so a planted line,
 * one copied from another session or folder, or one changed after it was written does not
 * pass. Without a usable key (said once by the {@link GrantSeal}) lines are written plain
 * and every message is taken unchecked, as before history was sealed.
 */
export class HistorySeal {
  /**
   * @param seal - the store's seal (its grants' key).
   * @param folder - the store's folder by its real path (another path to it is the same folder).
   */
  constructor(
    private readonly seal: GrantSeal,
    private readonly folder: () => Promise<string>,
  ) {}

  /** The text to write for `messages`: one line each (sealed when there is a key), each ending in a newline. */
  async lines(sessionId: string, messages: readonly ChatMessage[]): Promise<string> {
    if (messages.length === 0) return '';
    const macs = await this.seal.macs();
    const folder = macs && (await this.folder());
    return messages
      .map((m) => {
        const message = withoutMac(m);
        return `${JSON.stringify(macs ? { ...message, mac: macs.sign(facts(folder!, sessionId, message)) } : message)}\n`;
      })
      .join('');
  }

  /**
   * The messages `lines` hold, and which lines hold one without a valid seal. A line that is
   * no message (cut by a crash, the archive mark, anything without a string `role`) is
   * passed over, as the store always did.
   */
  async read(sessionId: string, lines: readonly string[]): Promise<ReadHistory> {
    const found = lines.flatMap((line, index) => {
      const value = parseMessage(line);
      return value ? [{ value, lineNumber: index + 1 }] : [];
    });
    // No key is needed (nor made) for a session without messages.
    const macs = found.length > 0 ? await this.seal.macs() : undefined;
    const folder = macs && (await this.folder());
    const messages: ChatMessage[] = [];
    const unsealedLines: number[] = [];
    for (const { value, lineNumber } of found) {
      const message = withoutMac(value);
      messages.push(message);
      if (macs && !macs.check(facts(folder!, sessionId, message), value.mac)) unsealedLines.push(lineNumber);
    }
    return { messages, unsealedLines };
  }
}

/**
 * How many leading messages the archive accounts for, from a session file's first line, the
 * mark a compaction writes (`{"archived":N}`, no `role`: reading passes it over); 0 without one.
 */
export function archivedMark(line: string | undefined): number {
  if (line === undefined || !line.startsWith('{"archived":')) return 0;
  try {
    const { archived } = JSON.parse(line) as { archived?: unknown };
    return typeof archived === 'number' && Number.isInteger(archived) && archived >= 0 ? archived : 0;
  } catch {
    return 0;
  }
}

/** What a message line's MAC covers. */
function facts(folder: string, sessionId: string, message: ChatMessage): readonly unknown[] {
  return ['rxharness-message-1', folder, sessionId, message];
}

/** The message without a `mac` of its own: the seal covers exactly what is loaded back. */
function withoutMac(value: ChatMessage | (ChatMessage & { readonly mac?: unknown })): ChatMessage {
  if (!('mac' in value)) return value;
  const { mac: _seal, ...message } = value;
  return message as ChatMessage;
}

/** The JSON object a line holds when it has a string `role`; else `undefined` (a line cut by a crash, the archive mark). */
function parseMessage(line: string): (ChatMessage & { readonly mac?: unknown }) | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as ChatMessage | null;
    return typeof value === 'object' && value !== null && typeof value.role === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
