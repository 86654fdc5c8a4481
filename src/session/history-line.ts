import type { ChatMessage } from '../model/chat-message.js';

/*
 * How a `FileSessionStore` history file's lines are read, before any seal is checked
 * (`history-seal.ts` checks them): a message line, the compaction mark, anything else.
 */

/** A compaction mark as a messages file's first line holds it. */
export interface Mark {
  /** How many of the file's leading messages the archive accounts for. */
  readonly archived: number;
  /** The random generation of the compaction that wrote it (`''` in a mark of an earlier version). */
  readonly generation: string;
  /** Its seal, when it has one. */
  readonly mac?: unknown;
}

/**
 * The mark a compaction writes as a session file's first line (`{"archived":N,...}`, no
 * `role`: reading passes it over as a message), or `undefined` for none (or a malformed one,
 * which counts as none, as it always did).
 */
export function parseMark(line: string | undefined): Mark | undefined {
  if (line === undefined || !line.startsWith('{"archived":')) return undefined;
  try {
    const { archived, generation, mac } = JSON.parse(line) as Record<string, unknown>;
    if (typeof archived !== 'number' || !Number.isInteger(archived) || archived < 0) return undefined;
    return { archived, generation: typeof generation === 'string' ? generation : '', ...(mac === undefined ? {} : { mac }) };
  } catch {
    return undefined;
  }
}

/** The message without a `mac` of its own: the seal covers exactly what is loaded back. */
export function withoutMac(value: ChatMessage | (ChatMessage & { readonly mac?: unknown })): ChatMessage {
  if (!('mac' in value)) return value;
  const { mac: _seal, ...message } = value;
  return message as ChatMessage;
}

/** The JSON object a line holds when it has a string `role`; else `undefined` (a line cut by a crash, the archive mark). */
export function parseMessage(line: string): (ChatMessage & { readonly mac?: unknown }) | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as ChatMessage | null;
    return typeof value === 'object' && value !== null && typeof value.role === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
