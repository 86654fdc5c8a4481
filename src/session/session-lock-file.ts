import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { onceWarner } from '../errors/warn-once.js';
import { openConfined, type ConfinedRoot } from './confined-file.js';
import { holderState, lockText, parseHolder } from './lock-holder.js';
import type { ClaimGranted, SessionClaim } from './session-claim.js';
import { sessionFileStem } from './session-file-name.js';

const { O_CREAT, O_EXCL, O_RDONLY, O_WRONLY } = constants;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** A lock is one short JSON line; more is no lock this store wrote, and is never read whole. */
const MAX_LOCK_BYTES = 4096;

/** The warning code of a lock a release could not remove. */
export const SESSION_LOCK_LEFT = 'RXHARNESS_SESSION_LOCK_LEFT';
const warnLockLeft = onceWarner(SESSION_LOCK_LEFT);

/**
 * The lock file of a session in a `FileSessionStore` folder: `<stem>.lock`. No session file
 * name ends in `.lock`, so it is no other session's file; it is not one of the session's
 * files (`SESSION_FILE_SUFFIXES`) either, since a delete holds it while it removes those.
 *
 * @example
 * ```ts
 * sessionLockFile('/repo/.rxharness/sessions', 'Notes'); // '/repo/.rxharness/sessions/~4e6f746573.lock'
 * ```
 */
export function sessionLockFile(dir: string, sessionId: string): string {
  return join(dir, `${sessionFileStem(sessionId)}.lock`);
}

/**
 * Claims a session across the processes sharing its folder, once `local` (this process's
 * claim) was granted: the lock file `file` made exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`),
 * holding the owner and its process (`lock-holder.ts`). A lock whose process has ended on this
 * machine (killed, crashed) is removed, once, and the claim tried again; see
 * `removeStale`. Refused, the answer names the holder and the lock file to delete should
 * no process use the session. `local` is released with the lock, or at once when refused.
 *
 * @throws `UnsafeLinkError` for a link planted as the lock, `NotRegularFileError`
 * for a FIFO, folder, socket or device there; file-system errors as they are.
 */
export async function claimLockFile(root: ConfinedRoot, file: string, owner: string, local: ClaimGranted, ready: () => Promise<unknown>): Promise<SessionClaim> {
  try {
    await ready();
    const claim = await takeLock(root, file, owner);
    if (!claim.granted) local.release();
    return claim.granted ? { granted: true, release: () => (claim.release(), local.release()) } : claim;
  } catch (e) {
    local.release();
    throw e;
  }
}

async function takeLock(root: ConfinedRoot, file: string, owner: string): Promise<SessionClaim> {
  let recovered = false;
  // A few rounds at most: a lock released between our create and our read is tried again.
  for (let round = 0; round < 3; round++) {
    const text = lockText(owner);
    if (await create(root, file, text)) return held(file, text);
    const found = await readLock(root, file);
    if (found === undefined) continue;
    const holder = parseHolder(found);
    if (holder === undefined) return refused(`unknown (the lock file ${file} is empty, cut or not written by rxharness`, file);
    const state = await holderState(holder);
    const who = `${holder.owner} (pid ${holder.pid} on ${holder.host}`;
    if (state !== 'dead') return refused(who, file);
    if (recovered) return refused(`${who}, which has ended; its lock file ${file} is being recovered by another process, or a recovery stopped`, `${file} and ${file}.recover`);
    recovered = true;
    await removeStale(root, file);
  }
  return refused(`unknown (the lock file ${file} keeps changing hands`, file);
}

/** A refusal naming who holds the session, and what to delete should that be no live run. */
function refused(who: string, files: string): SessionClaim {
  return { granted: false, owner: `${who}: delete ${files} if no rxharness process uses this session)` };
}

/** Makes the lock, whole: false when a file is there already (whatever it is: never followed). */
async function create(root: ConfinedRoot, file: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await openConfined(root, file, O_WRONLY | O_CREAT | O_EXCL);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    await handle.writeFile(text);
  } catch (e) {
    await rm(file, { force: true }); // ours, half written (a full disk): no one must take it for a claim
    throw e;
  } finally {
    await handle.close();
  }
  return true;
}

/** The lock's text, at most {@link MAX_LOCK_BYTES} (a longer one reads as garbage); `undefined` when it is gone. */
async function readLock(root: ConfinedRoot, file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await openConfined(root, file, O_RDONLY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const buffer = Buffer.alloc(MAX_LOCK_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return bytesRead > MAX_LOCK_BYTES ? '' : buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Removes a lock whose holder has ended, under the guard `<lock>.recover` (made exclusively):
 * two processes finding the same stale lock must not both remove "it", as the second would
 * remove the lock the first has made since. Under the guard the lock is read and judged
 * again, and only that text's holder being dead removes it; nothing else removes a lock but
 * its holder, so it cannot change in between. A guard already there: another process is
 * recovering (or died doing so, and the refusal names the guard).
 */
async function removeStale(root: ConfinedRoot, file: string): Promise<void> {
  const guard = `${file}.recover`;
  const made = await create(root, guard, lockText('recovery'));
  if (!made) return;
  try {
    const found = await readLock(root, file);
    const holder = found === undefined ? undefined : parseHolder(found);
    if (holder !== undefined && (await holderState(holder)) === 'dead') await rm(file, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

/** A granted lock: its release removes the file only while it holds this very text (synchronously: a claim right after it must find it gone). */
function held(file: string, text: string): ClaimGranted {
  let released = false;
  return {
    granted: true,
    release(): void {
      if (released) return;
      released = true;
      try {
        if (readOwnLock(file) === text) unlinkSync(file);
      } catch (e) {
        const { code } = e as NodeJS.ErrnoException;
        if (code !== 'ENOENT' && code !== 'ELOOP') warnLockLeft(file, `The session lock ${file} could not be removed (${String(e)}): delete it, else the session stays busy.`);
      }
    },
  };
}

/** The text of the regular file at `file` (never a link, a FIFO or a device: those are not ours). */
function readOwnLock(file: string): string | undefined {
  if (!lstatSync(file).isFile()) return undefined;
  const fd = openSync(file, O_RDONLY | NOFOLLOW | NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_LOCK_BYTES + 1);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(fd);
  }
}
