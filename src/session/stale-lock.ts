import { constants } from 'node:fs';
import { rm } from 'node:fs/promises';
import { openConfined, type ConfinedRoot } from './confined-file.js';
import { holderState, lockText, parseHolder, type HolderState, type LockHolder } from './lock-holder.js';
import { errnoOf } from '../errors/errno-of.js';

const { O_CREAT, O_EXCL, O_RDONLY, O_WRONLY } = constants;

/** A lock is one short JSON line; more is no lock this store wrote, and is never read whole. */
export const MAX_LOCK_BYTES = 4096;

/**
 * How old an empty or cut lock (or guard) must be to be taken for one whose writer died
 * between its exclusive create and its write. A live writer writes its ~200 bytes right
 * after the create, so such a file is empty for microseconds; a minute leaves room for a
 * loaded machine and for clocks (the file system's and ours) that disagree a little.
 */
export const UNWRITTEN_LOCK_MS = 60_000;

/** A lock file as read: its text (at most {@link MAX_LOCK_BYTES}) and when it was last written. */
export interface FoundLock {
  readonly text: string;
  readonly mtimeMs: number;
}

/**
 * What a lock (or a recovery guard) found on disk is: a holder's, in the state its process
 * is in (`holderState`); `unwritten`, an empty or cut lock older than {@link UNWRITTEN_LOCK_MS}
 * (its writer died before writing, or someone planted it: removing it is harmless either
 * way); `young`, such a lock young enough to be being written right now; or `unknown`,
 * text no rxharness writes. `dead` and `unwritten` are stale: they may be removed, under a
 * guard.
 */
export type LockVerdict = { readonly state: HolderState; readonly holder: LockHolder } | { readonly state: 'unwritten' | 'young' | 'unknown'; readonly holder?: undefined };

/** Whether a lock of this verdict may be removed (under its guard: see {@link removeStale}). */
export function isStale(verdict: LockVerdict): boolean {
  return verdict.state === 'dead' || verdict.state === 'unwritten';
}

/** Judges a lock found on disk; see {@link LockVerdict}. */
export async function judgeLock(found: FoundLock, now = Date.now()): Promise<LockVerdict> {
  const holder = parseHolder(found.text);
  if (holder !== undefined) return { state: await holderState(holder), holder };
  if (!isCut(found.text)) return { state: 'unknown' };
  return now - found.mtimeMs > UNWRITTEN_LOCK_MS ? { state: 'unwritten' } : { state: 'young' };
}

/**
 * Empty, or the start of a lock this module writes (`{"owner":`) that is no JSON yet: what a
 * write cut short leaves (cut just before its end of line, a lock parses, and is judged by
 * its holder). Any other text was put there by someone else, deliberately, and is not removed.
 */
function isCut(text: string): boolean {
  if (text === '') return true;
  if (!text.startsWith('{"owner":') || text.includes('\n')) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/**
 * Makes `file` exclusively (`O_CREAT|O_EXCL`, never following a link) holding `text`:
 * false when a file is there already, whatever it is. A write that fails (a full disk)
 * removes the file again, so no one takes half a lock for a claim.
 */
export async function createLock(root: ConfinedRoot, file: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await openConfined(root, file, O_WRONLY | O_CREAT | O_EXCL);
  } catch (e) {
    if (errnoOf(e) === 'EEXIST') return false;
    throw e;
  }
  try {
    await handle.writeFile(text);
  } catch (e) {
    await rm(file, { force: true });
    throw e;
  } finally {
    await handle.close();
  }
  return true;
}

/** The lock at `file` (a file over {@link MAX_LOCK_BYTES} reads as garbage); `undefined` when it is gone. */
export async function readLock(root: ConfinedRoot, file: string): Promise<FoundLock | undefined> {
  let handle;
  try {
    handle = await openConfined(root, file, O_RDONLY);
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const buffer = Buffer.alloc(MAX_LOCK_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const { mtimeMs } = await handle.stat();
    // Over the limit: garbage, never taken for a cut lock however old.
    return { text: bytesRead > MAX_LOCK_BYTES ? 'x' : buffer.toString('utf8', 0, bytesRead), mtimeMs };
  } finally {
    await handle.close();
  }
}

/**
 * Removes `file` if it is stale, under `guard` (made exclusively): two processes finding
 * the same stale file must not both remove "it", as the second would remove the file made
 * since by another. Under the guard the file is read and judged again, and only a stale
 * verdict on that text removes it. Nothing else removes a stale file (its holder is dead;
 * every other remover holds this guard), so it cannot change between that read and the
 * removal. False when the guard was there already: another process is at it, or died at it.
 *
 * The same step, one level up, removes a guard whose recoverer died (`<lock>.recover` under
 * `<lock>.recover.recover`). A dead guard cannot simply be deleted by whoever finds it: two
 * finding it dead, the first deletes it and makes its own, and the second then deletes that
 * live one; with no compare-and-delete in POSIX, only another exclusive create orders them.
 * A guard of that guard left by a process killed in its few microseconds stays refused.
 */
export async function removeStale(root: ConfinedRoot, file: string, guard: string): Promise<boolean> {
  if (!(await createLock(root, guard, lockText('recovery')))) return false;
  try {
    const found = await readLock(root, file);
    if (found !== undefined && isStale(await judgeLock(found))) await rm(file, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
  return true;
}
