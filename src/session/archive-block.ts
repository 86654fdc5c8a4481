import { createHash } from 'node:crypto';
import type { ChatMessage } from '../model/chat-message.js';
import type { HistoryEnd } from './history-seal.js';
import { parseMessage, withoutMac } from './history-line.js';

/*
 * A compaction appends the messages its archive lacks, then rewrites the messages file. A crash
 * between the two leaves the messages file as it was, so the compaction run again would append
 * the same messages once more. So each block appended is preceded by a line naming where it
 * came from (`{"archiveBlock":{...}}`, no `role`: every reader passes it over, as it passes a
 * cut line, so an archive with such lines still loads anywhere, and one without loads here),
 * and an archive that ends with that block, whole or cut short, gets only what it lacks.
 */

/** Where a block of archived messages came from: the messages file's state, and the block itself. */
export interface ArchiveBlock {
  /** The messages file's compaction generation (`''` before the first compaction, or without a key). */
  readonly generation: string;
  /** How many leading messages of that file were archived before: where the block starts in it. */
  readonly archived: number;
  /** How many messages the block holds. */
  readonly count: number;
  /** The SHA-256 of the block's messages: two blocks from one place of equal files differ by it. */
  readonly sha256: string;
}

/** The block the messages `block` make, taken from the messages file ending at `end`. */
export function archiveBlockOf(end: HistoryEnd, block: readonly ChatMessage[]): ArchiveBlock {
  const sha256 = createHash('sha256').update(JSON.stringify(block)).digest('hex');
  return { generation: end.generation, archived: end.archived, count: block.length, sha256 };
}

/** The line that goes before the block's messages in the archive, ending in a newline. */
export function archiveBlockLine(block: ArchiveBlock): string {
  return `${JSON.stringify({ archiveBlock: block })}\n`;
}

/**
 * How many of `block`'s messages the archive's `lines` already end with, after the line naming
 * that very block (a rerun after a crash: all of them, or the first few when the crash cut the
 * append); `undefined` when the archive does not end with that block, the block must be
 * appended whole, after its line. Only messages that pass their seal count (`unsealedLines`,
 * 1-based, as `HistorySeal.read` finds them) and only when equal to the block's: a planted
 * or garbled line never makes a message be left out. A marker line that is not one is ignored.
 */
export function archivedAlready(lines: readonly string[], unsealedLines: readonly number[], block: ArchiveBlock, messages: readonly ChatMessage[]): number | undefined {
  let at = lines.length - 1;
  while (at >= 0 && readBlock(lines[at]!) === undefined) at -= 1;
  const last = at >= 0 ? readBlock(lines[at]!) : undefined;
  if (!last || !sameBlock(last, block)) return undefined;
  if (unsealedLines.some((line) => line > at + 1)) return undefined;
  const after = lines.slice(at + 1).flatMap((line) => {
    const value = parseMessage(line);
    return value ? [withoutMac(value)] : [];
  });
  if (after.length > messages.length) return undefined;
  return after.every((m, i) => JSON.stringify(m) === JSON.stringify(messages[i])) ? after.length : undefined;
}

/** The block a line names, or `undefined` for any other line (a message, a cut or garbled line, a foreign object). */
function readBlock(line: string): ArchiveBlock | undefined {
  if (!line.startsWith('{"archiveBlock":')) return undefined;
  try {
    const { archiveBlock: b } = JSON.parse(line) as { archiveBlock?: Record<string, unknown> };
    if (typeof b !== 'object' || b === null) return undefined;
    const { generation, archived, count, sha256 } = b;
    if (typeof generation !== 'string' || typeof archived !== 'number' || typeof count !== 'number' || typeof sha256 !== 'string') return undefined;
    return { generation, archived, count, sha256 };
  } catch {
    return undefined;
  }
}

function sameBlock(a: ArchiveBlock, b: ArchiveBlock): boolean {
  return a.generation === b.generation && a.archived === b.archived && a.count === b.count && a.sha256 === b.sha256;
}
