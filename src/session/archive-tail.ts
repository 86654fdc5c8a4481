import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { readBlock } from './archive-block.js';
import { openConfined, type ConfinedRoot } from './confined-file.js';
import { errnoOf } from '../errors/errno-of.js';
import { parseMessage } from './history-line.js';
import { MAX_SESSION_FILE_BYTES } from './read-whole.js';

/** The first bytes read from an archive's end; each later read doubles what was read. */
const FIRST_READ_BYTES = 64 * 1024;

/** The end of a session's archive that a compaction reads (see {@link archiveTail}). */
export interface ArchiveTail {
  /** The lines read, to the file's end (the last one empty when the file ends with a newline). */
  readonly lines: readonly string[];
  /** How many messages the archive holds before `lines`, as its last block's line says (0 when `lines` start the file). */
  readonly first: number;
  /** Whether `lines` are the whole file; else the first is a message line, to check sealed at index `first`. */
  readonly whole: boolean;
}

/**
 * The tail of the archive `file` a compaction needs, read from the file's end backwards (each
 * read twice the last): its last archive block's line (`archive-block.ts`), the lines after it,
 * and the message line before it, whose seal (at index `first`, the block's `at` less one) shows
 * the block's count of earlier messages holds. So a compaction costs what it appends, not the
 * whole transcript (and an archive too large to read whole still compacts). The whole file,
 * when no block line is found before its start (an earlier version's archive) or the block's
 * line says a place its file contradicts; an empty one when there is no file. `undefined` when
 * no such tail lies in the last `limit` bytes: the caller reads the whole file (and fails on
 * one too large).
 */
export async function archiveTail(root: ConfinedRoot, file: string, limit = MAX_SESSION_FILE_BYTES): Promise<ArchiveTail | undefined> {
  let handle: FileHandle;
  try {
    handle = await openConfined(root, file, constants.O_RDONLY);
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return { lines: [], first: 0, whole: true };
    throw e;
  }
  try {
    let start = (await handle.stat()).size;
    let tail = Buffer.alloc(0);
    while (tail.length <= limit) {
      const size = Math.min(start, Math.max(FIRST_READ_BYTES, tail.length));
      const chunk = Buffer.allocUnsafe(size);
      start -= size;
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await handle.read(chunk, filled, size - filled, start + filled);
        if (bytesRead === 0) break; // cut meanwhile: the lines from here are another file's
        filled += bytesRead;
      }
      if (filled < size) return undefined;
      tail = Buffer.concat([chunk, tail]);
      const found = tailOf(tail, start === 0);
      if (found !== 'more') return found;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The tail in the bytes read (`whole`: from the file's start), or `'more'` when it may start before them. */
function tailOf(bytes: Buffer, whole: boolean): ArchiveTail | 'more' {
  // The first line read may be cut at its start (unless it starts the file): never taken.
  const from = whole ? 0 : bytes.indexOf(0x0a) + 1;
  if (from === 0 && !whole) return 'more';
  const lines = bytes.toString('utf8', from).split('\n');
  let last = lines.length - 1;
  while (last >= 0 && readBlock(lines[last]!) === undefined) last -= 1;
  const block = last >= 0 ? readBlock(lines[last]!) : undefined;
  let before = last - 1;
  while (before >= 0 && parseMessage(lines[before]!) === undefined) before -= 1;
  if (block && before >= 0 && block.at >= 1) return { lines: lines.slice(before), first: block.at - 1, whole: false };
  // Read to the start, undecided: the whole file, as before blocks (`archivedAlready` tells a misplaced block line).
  return whole ? { lines, first: 0, whole: true } : 'more';
}
