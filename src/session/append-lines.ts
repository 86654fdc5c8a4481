/**
 * What `FileSessionStore`'s appenders (its grants' `LineAppender`, its histories'
 * `HistoryAppender`) share: a file opened for appending only, and the newline written
 * first when a crash or a failed write cut its last line, else the first new line would be
 * glued to the cut one and both lost.
 *
 * @module
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openConfined, type ConfinedRoot } from './confined-file.js';

const { O_APPEND, O_CREAT, O_RDWR } = constants;

/**
 * Opens `file` under `root` to append to it (creating it; every write goes to its end, even
 * one racing another writer's), runs `use` with it, and closes it whatever `use` does.
 */
export async function appendingTo<T>(root: ConfinedRoot, file: string, use: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await openConfined(root, file, O_RDWR | O_APPEND | O_CREAT);
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/** What to write before new lines given a file's last byte (`undefined`: it is empty): a newline after a cut line, else nothing. */
export function freshLineLead(lastByte: number | undefined): '' | '\n' {
  return lastByte === undefined || lastByte === 0x0a ? '' : '\n';
}

/** {@link freshLineLead} for an open file, reading its last byte only. */
export async function freshLineLeadOf(handle: FileHandle): Promise<'' | '\n'> {
  const { size } = await handle.stat();
  if (size === 0) return freshLineLead(undefined);
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return freshLineLead(last[0]);
}
