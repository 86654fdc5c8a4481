import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { onceWarner } from '../errors/warn-once.js';
import type { ConfinedRoot } from './confined-file.js';
import { lockText } from './lock-holder.js';
import type { ClaimGranted, SessionClaim } from './session-claim.js';
import { sessionFileStem } from './session-file-name.js';
import { createLock, isStale, judgeLock, MAX_LOCK_BYTES, readLock, removeStale, type LockVerdict } from './stale-lock.js';
import { errnoOf } from '../errors/errno-of.js';

const { O_RDONLY } = constants;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

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
 * holding the owner and its process (`lock-holder.ts`). A stale lock (its process ended on
 * this machine, or it was never written whole and is over a minute old) is removed under
 * the guard `<lock>.recover`, and the claim tried again; a guard whose recoverer ended too is
 * removed the same way (`stale-lock.ts`). Refused, the answer names the holder, and the files
 * to delete should no process use the session. `local` is released with the lock, or at
 * once when refused.
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
  const guard = `${file}.recover`;
  // A few rounds at most: a lock released between our create and our read, or a stale one
  // just removed, is tried again.
  for (let round = 0; round < 4; round++) {
    const text = lockText(owner);
    if (await createLock(root, file, text)) return held(file, text);
    const found = await readLock(root, file);
    if (found === undefined) continue;
    const lock = await judgeLock(found);
    if (!isStale(lock)) return refused(heldBy(lock, file));
    if (await removeStale(root, file, guard)) continue;
    const stuck = await clearGuard(root, file, guard, lock);
    if (stuck !== undefined) return refused(stuck);
  }
  return refused(`unknown (the lock file ${file} keeps changing hands: try again)`);
}

/** What a refusal that no waiting ends asks of the user. */
const IF_UNUSED_DELETE = 'if no rxharness process uses this session, delete';

/** A refusal: `who` is the text a `SessionBusyError` shows as the run holding the session. */
function refused(who: string): SessionClaim {
  return { granted: false, owner: who };
}

/** Who holds the session, as far as its lock tells, and what to do about it. */
function heldBy(lock: LockVerdict, file: string): string {
  if (lock.state === 'young') return `unknown (the lock file ${file} is being written right now, or its writer died there and it goes in a minute: try again)`;
  if (lock.holder === undefined) return `unknown (the lock file ${file} is not one rxharness writes: ${IF_UNUSED_DELETE} it)`;
  const who = `${lock.holder.owner} (pid ${lock.holder.pid} on ${lock.holder.host}`;
  if (lock.state === 'alive') return `${who}, still running; its lock file is ${file})`;
  return `${who}, which cannot be checked from here: ${IF_UNUSED_DELETE} its lock file ${file})`;
}

/**
 * The guard `<lock>.recover` was there when a stale lock was to be removed: removes it if
 * its recoverer has ended too (`removeStale`, one level up). `undefined` to try again;
 * otherwise why the session stays refused: a live recoverer at work, or a guard that
 * cannot be judged or removed (named, with every file to delete).
 */
async function clearGuard(root: ConfinedRoot, file: string, guard: string, lock: LockVerdict): Promise<string | undefined> {
  const found = await readLock(root, guard);
  if (found === undefined) return undefined; // the recovery just ended
  const verdict = await judgeLock(found);
  const gone = lock.holder === undefined ? `unknown (its lock file ${file} was never written whole` : `${lock.holder.owner} (pid ${lock.holder.pid} on ${lock.holder.host}, which has ended`;
  if (verdict.state === 'alive') return `${gone}; pid ${verdict.holder.pid} is removing that lock file right now: try again)`;
  // Made an instant ago and not written yet (or its maker died there: removed after a minute).
  if (verdict.state === 'young') return `${gone}; another process is removing that lock file right now: try again)`;
  if (!isStale(verdict)) return `${gone}; a recovery of its lock file stopped or cannot be checked: ${IF_UNUSED_DELETE} ${file} and ${guard})`;
  if (await removeStale(root, guard, `${guard}.recover`)) return undefined;
  return `${gone}; its stale recovery guard is being removed by another process, or that stopped too: try again; ${IF_UNUSED_DELETE} ${file}, ${guard} and ${guard}.recover)`;
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
        const code = errnoOf(e);
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
