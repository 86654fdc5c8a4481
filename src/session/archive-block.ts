import { createHash } from 'node:crypto';
import type { ChatMessage } from '../model/chat-message.js';
import type { Macs } from './grant-seal.js';
import type { HistoryEnd } from './history-seal.js';
import { parseMessage, withoutMac } from './history-line.js';

/*
 * A compaction appends the messages its archive lacks, then rewrites the messages file. A crash
 * between the two leaves the messages file as it was, so the compaction run again would append
 * the same messages once more. So each block appended is preceded by a line naming where it
 * came from (`{"archiveBlock":{...}}`, no `role`: every reader passes it over, as it passes a
 * cut line, so an archive with such lines still loads anywhere, and one without loads here),
 * and an archive that ends with that block, whole or cut short, gets only what it lacks.
 * The line is sealed with the user's key and says how many messages the archive held before
 * it, so one planted, copied or moved (to make a compaction leave messages out) does not
 * count; the messages file's generation is random per compaction, so two compactions of equal
 * messages name different blocks, with a key or without.
 */

/** Where a block of archived messages came from: the messages file's state, and the block itself. */
export interface ArchiveBlock {
  /** The messages file's compaction generation (random per compaction, with a key or without; `''` before the first). */
  readonly generation: string;
  /** How many leading messages of that file were archived before: where the block starts in it. */
  readonly archived: number;
  /** How many messages the block holds. */
  readonly count: number;
  /** The SHA-256 of the block's messages: two blocks from one place of equal files differ by it. */
  readonly sha256: string;
  /** How many messages the archive held when the block's line was written: where the line sits in it. */
  readonly at: number;
}

/** The block the messages `block` make, taken from the messages file ending at `end`, for an archive of `at` messages. */
export function archiveBlockOf(end: HistoryEnd, at: number, block: readonly ChatMessage[]): ArchiveBlock {
  const sha256 = createHash('sha256').update(JSON.stringify(block)).digest('hex');
  return { generation: end.generation, archived: end.archived, count: block.length, sha256, at };
}

/** The line that goes before the block's messages in the archive, sealed by `seal` when there is a key, ending in a newline. */
export function archiveBlockLine(block: ArchiveBlock, seal: Macs | undefined): string {
  return `${JSON.stringify({ archiveBlock: seal ? { ...block, mac: seal.sign(factsOf(block)) } : block })}\n`;
}

/**
 * How many of `block`'s messages the archive's `lines` (after its `first` messages, when
 * `lines` are only its tail: `archive-tail.ts`) already end with, after the line naming
 * that very block (a rerun after a crash: all of them, or the first few when the crash cut the
 * append); `undefined` when the archive does not end with that block, the block must be
 * appended whole, after its line. The line counts only when it passes its seal (`seal`, when
 * there is a key) and sits where it says (after `at` messages), and only messages that pass
 * their seal (`unsealedLines`, 1-based, as `HistorySeal.read` finds them) and equal the
 * block's count: a planted, moved or garbled line never makes a message be left out. A line of
 * an earlier version (no `at`) never counts: the block is appended whole.
 */
export function archivedAlready(lines: readonly string[], first: number, unsealedLines: readonly number[], block: ArchiveBlock, messages: readonly ChatMessage[], seal: Macs | undefined): number | undefined {
  let at = lines.length - 1;
  while (at >= 0 && readBlock(lines[at]!) === undefined) at -= 1;
  const last = at >= 0 ? readBlock(lines[at]!) : undefined;
  if (!last || !sameBlock(last, block)) return undefined;
  if (seal && !seal.check(factsOf(last), last.mac)) return undefined; // without a key nothing is checked, as in `HistorySeal.read`
  if (last.at !== first + lines.slice(0, at).filter((line) => parseMessage(line) !== undefined).length) return undefined;
  if (unsealedLines.some((line) => line > at + 1)) return undefined;
  const after = lines.slice(at + 1).flatMap((line) => {
    const value = parseMessage(line);
    return value ? [withoutMac(value)] : [];
  });
  if (after.length > messages.length) return undefined;
  return after.every((m, i) => JSON.stringify(m) === JSON.stringify(messages[i])) ? after.length : undefined;
}

/** A block as a line names it, with the line's seal. */
export type NamedBlock = ArchiveBlock & { readonly mac?: unknown };

/** The block a line names, or `undefined` for any other line (a message, a cut or garbled line, a foreign object, an earlier version's line without `at`). */
export function readBlock(line: string): NamedBlock | undefined {
  if (!line.startsWith('{"archiveBlock":')) return undefined;
  try {
    const { archiveBlock: b } = JSON.parse(line) as { archiveBlock?: Record<string, unknown> };
    if (typeof b !== 'object' || b === null) return undefined;
    const { generation, archived, count, sha256, at, mac } = b;
    if (typeof generation !== 'string' || typeof archived !== 'number' || typeof count !== 'number' || typeof sha256 !== 'string' || typeof at !== 'number') return undefined;
    return { generation, archived, count, sha256, at, ...(mac === undefined ? {} : { mac }) };
  } catch {
    return undefined;
  }
}

/** What a block line's seal covers (`HistorySeal.readArchive` adds the place). */
function factsOf(b: ArchiveBlock): readonly unknown[] {
  return [b.generation, b.archived, b.count, b.sha256, b.at];
}

/** The same block from the same place of the same messages file (where its line sits is checked apart: a rerun's archive has grown). */
function sameBlock(a: ArchiveBlock, b: ArchiveBlock): boolean {
  return a.generation === b.generation && a.archived === b.archived && a.count === b.count && a.sha256 === b.sha256;
}
