import type { FileSessionParts } from './file-session-parts.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { assertSessionId } from './session-id.js';
import { claimLockFile, sessionLockFile } from './session-lock-file.js';

/**
 * Which run holds which session, for every file store of this process, keyed by the folder
 * and the session: checked before the lock file that other processes see. Only live claims
 * are kept, so the map does not grow with the folders a process has used.
 */
const FOLDER_CLAIMS = new LocalClaims();

/**
 * What `FileSessionStore.claim` does: the claim of this process (shared by every store of the
 * folder, so two stores of one folder in one process exclude each other too), then, granted,
 * `<id>.lock` beside the session's files for other processes (`session-lock-file.ts`).
 */
export async function claimFileSession(parts: FileSessionParts, sessionId: string, owner: string): Promise<SessionClaim> {
  assertSessionId(sessionId);
  // A NUL cannot be in a path, so no folder and session pair reads as another.
  const local = FOLDER_CLAIMS.claim(`${parts.folderKey}\u0000${sessionId}`, owner);
  return local.granted ? await claimLockFile(parts.folder.root, sessionLockFile(parts.dir, sessionId), owner, local, () => parts.folder.mkdir()) : local;
}
