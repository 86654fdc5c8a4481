import type { ChatMessage } from '../model/chat-message.js';
import { DeletedConversations } from './deleted-conversations.js';
import { fileSessionParts, type FileSessionParts } from './file-session-parts.js';
import { FileSessionRemoval } from './file-session-removal.js';
import type { NotRegularFileError } from './not-regular-file-error.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { assertSessionId } from './session-id.js';
import { claimLockFile, sessionLockFile } from './session-lock-file.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
import type { UnsafeLinkError } from './unsafe-link-error.js';
import type { UnsealedSessionError } from './unsealed-session-error.js';

/**
 * Which run holds which session, for every file store of this process, keyed by the folder
 * and the session: checked before the lock file that other processes see. Only live claims
 * are kept, so the map does not grow with the folders a process has used.
 */
const FOLDER_CLAIMS = new LocalClaims();

/**
 * A {@link SessionStore} on disk: one JSON-lines file per session under
 * `<workspace>/.rxharness/sessions/` (one message per line, appended), and a small JSON file
 * per task session for resume. Sessions and task resumes survive restarts. A compacted
 * session keeps its whole transcript beside it, in `<id>.archive.jsonl`. A small
 * `<id>.summary.json` (the real id, the title and the last activity, rewritten with each
 * write) lets {@link FileSessionStore.list} name and order sessions without reading or
 * dating their transcripts, a long id stored by its hash included. `<id>` stands for the
 * file stem (`sessionFileStem` in `session-file-name.ts`): the id when it is plain, else encoded, so no id's files
 * are another's (session "notes.archive" is not the archive of "notes").
 *
 * Crash safety: a message is one line written by one append, so a crash mid-write can only
 * cut the last line. Loading skips a line that does not parse, and the next append (after a
 * restart, or after a failed write in this process) starts on a fresh line, so other
 * messages are never lost. Task files are written to a temporary file and renamed, so they
 * are whole or absent.
 *
 * Confinement: the folder lies in the workspace, where a model's command can plant
 * symbolic links. Every file is reached only if no link on the way leads out of the
 * workspace (out of `options.dir` for a folder given outside it) and the file itself is no
 * link; otherwise the call fails with an {@link UnsafeLinkError} naming the link, and
 * nothing is written or read. A FIFO, folder, socket or device under a file's name is never
 * opened as the file (a FIFO would block the open for ever): {@link NotRegularFileError}.
 *
 * Grants: the folder's files are untrusted input, yet an "always" grant lets a call run
 * unasked. So each stored grant is signed (HMAC-SHA256) with a key of the user's kept
 * outside the workspace (`options.grantKey`, else `~/.rxharness/grant.key`, made when
 * missing), over the folder's real path, the session, the tool and the subject: a grant
 * planted in the folder, copied from another session or folder, or written before grants
 * were signed grants nothing (the run's `grant-skipped` Warning counts it), and the user is
 * asked again. Without a usable key (a corrupt key file, a home folder that cannot be
 * written, a home folder inside the workspace) a process warning
 * (`RXHARNESS_GRANT_KEY_UNUSABLE`) says why, and grants hold only for the life of the process.
 *
 * History and tasks: for the same reason each message line carries a seal (the same key, over
 * the folder, the session, the file, the line's place in it and the message); a compaction's
 * mark and each task file are sealed too (`history-seal.ts`, `task-seal.ts`). A session file
 * holding a line without a valid seal (planted, copied, changed, moved, or written before
 * history was sealed) is not loaded: `load`, `loadArchive` and a compaction fail with an
 * {@link UnsealedSessionError} saying what was found and what to do, and the file is left as
 * it is; so does resuming a task whose file has none. `options.trustUnsealed` names sessions
 * the user has checked: their first load seals what they hold. Without a usable key history
 * and task files are written and read unsealed, as before.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model, workspace, sessions: new FileSessionStore(workspace) });
 * await engine.call('Remember the number 7', { sessionId: 'notes' });
 * // ...after a restart, with a new engine on the same store:
 * await engine.call('What number?', { sessionId: 'notes' });
 * ```
 */
export class FileSessionStore implements SessionStore {
  /** The folder holding the files. */
  readonly dir: string;
  /** The parts, one per concern (`file-session-parts.ts`). */
  private readonly parts: FileSessionParts;
  /** How a session and its tasks are deleted. */
  private readonly removal: FileSessionRemoval;
  /** The conversations deleted and not written since: no task is saved for them (shared with `MemorySessionStore`). */
  private readonly deleted = new DeletedConversations();

  /**
   * Stores under `<workspace>/.rxharness/sessions/`, or under `options.dir` when given.
   * Files stay inside the workspace, or inside `options.dir` when that lies outside it.
   * `options.grantKey` signs the grants (see the class); without it, the key file in
   * `options.home` (default `os.homedir()`): `<home>/.rxharness/grant.key`; the same key
   * seals the history. `options.trustUnsealed` names sessions whose messages without a valid
   * seal are the user's own (written before history was sealed, or in a workspace since
   * moved): the first load of each seals them (see the class). Name only sessions you have
   * read: a planted file is sealed just the same.
   *
   * @throws TypeError for an empty `grantKey`.
   */
  constructor(workspace: string, options: { dir?: string; grantKey?: Uint8Array | string; home?: string; trustUnsealed?: readonly string[] } = {}) {
    this.parts = fileSessionParts(workspace, options);
    this.dir = this.parts.dir;
    this.removal = new FileSessionRemoval(this.parts);
  }

  /** The session's messages; an {@link UnsealedSessionError} when its file holds one without a valid seal (see the class). */
  load(sessionId: string): Promise<readonly ChatMessage[]> {
    return this.parts.history.load(sessionId);
  }

  append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    this.deleted.written(sessionId);
    return this.parts.history.append(sessionId, messages);
  }

  /**
   * Replaces a session's messages (a compaction): the messages the archive
   * (`<id>.archive.jsonl`) does not hold yet are appended to it, then the session file is
   * rewritten whole (a temporary file renamed over it), its first line saying how many of its
   * messages the archive accounts for. In the session's write queue, like `append`.
   */
  replace(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    this.deleted.written(sessionId);
    return this.parts.history.replace(sessionId, messages);
  }

  /** The whole transcript: the archive, then what the session gained since its last compaction (checked as `load`). */
  loadArchive(sessionId: string): Promise<readonly ChatMessage[]> {
    return this.parts.history.loadArchive(sessionId);
  }

  /**
   * Saves the task file (see {@link loadTaskInfo}). Refused with a `DeletedConversationError`
   * when the task's conversation was deleted before this save was asked and not written since
   * (by this store, in this process): the task would outlive its conversation.
   */
  saveTaskInfo(info: TaskSessionInfo): Promise<void> {
    const refused = this.deleted.refusal(info);
    if (refused) return Promise.reject(refused);
    return this.parts.tasks.save(info);
  }

  /**
   * What {@link saveTaskInfo} stored for the task; `undefined` when no task file is stored. A
   * task file that holds no task info (empty, cut, corrupt) or has no valid seal (an HMAC under
   * the grants' key of the folder and every field) is refused with an
   * {@link UnsealedSessionError} naming it and saying what to do, rather than taken for the
   * task's owner; one that cannot be read fails with the system's error.
   */
  loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    return this.parts.tasks.load(taskId);
  }

  /**
   * Removes a session's files, and its tasks' (`ownedTaskIds`: a new conversation of the id
   * must not resume them); an unknown id is no error. The files and the scan for its tasks run
   * in the session's queue, one write: a task saved before the delete was asked is found and
   * removed, one saved after is never touched by it (and is refused while the conversation is
   * not written anew: {@link saveTaskInfo}). A task session owns no tasks: the delete of one
   * this store saved (`StartedTasks`), or whose sealed task file it finds in its turn, reads no
   * other task file (an ephemeral run deletes each of its), and is not remembered as a deleted
   * conversation's (`DeletedConversations`: the task file decides, read before it goes).
   * A FIFO, socket or device planted under a file's name is removed with the files; a folder
   * is left, and a {@link NotRegularFileError} names it once everything else is removed.
   */
  delete(sessionId: string): Promise<void> {
    return this.removal.delete(sessionId, this.deleted.deleted(sessionId));
  }

  /**
   * The conversations in the folder (task sessions left out), the most recently written first
   * (a session's time is in its summary, written with each write and never set back), a page
   * of them with a `request`: sessions written since the previous page move to the front, so
   * paging neither repeats nor skips the others. Reads the folder and every summary, never a
   * transcript (except once for a session written before summaries, which then gets one, and
   * the time of one whose summary has none, which then gets it; a time more than a few minutes
   * in the future counts as none, so a planted one pins nothing). A summary the store did not
   * write (corrupt, planted, a link) leaves its session out, with a process warning
   * (`RXHARNESS_BAD_SESSION_SUMMARY`), and does not hide the others. A `request` that is none
   * (a `NaN` time, a `limit` of -1) is refused with a `RangeError` (`checkListRequest`).
   */
  list(request?: SessionListRequest): Promise<SessionSummary[]> {
    return this.parts.summaries.list(request);
  }

  /**
   * The conversation's "always" approvals (`<id>.grants.jsonl`, one per line). A line cut by
   * a crash is skipped; a line that is no grant this store's key signed for this folder and
   * session comes back as an entry that is no grant (`{ notSigned: true }`), so that the run
   * counts it in its `grant-skipped` Warning and asks again.
   */
  loadGrants(sessionId: string): Promise<readonly ApprovalGrant[]> {
    return this.parts.grants.load(sessionId);
  }

  /**
   * Keeps a signed grant; without a usable key, nothing (the grant holds in memory only, see
   * the class). In the session's write queue, as every write: a delete asked after it removes
   * the grant (outside the queue, a grant still being signed would be appended after the
   * delete and leave its "always" to a later conversation of the id); one asked before does not.
   */
  saveGrant(sessionId: string, grant: ApprovalGrant): Promise<void> {
    return this.parts.queues.enqueue(sessionId, () => this.parts.grants.save(sessionId, grant));
  }

  /**
   * Claims the session for one run (see {@link SessionStore.claim}) for every store of this
   * folder, in this process and in others: `<id>.lock` beside its files (`session-lock-file.ts`).
   */
  async claim(sessionId: string, owner: string): Promise<SessionClaim> {
    assertSessionId(sessionId);
    // A NUL cannot be in a path, so no folder and session pair reads as another.
    const local = FOLDER_CLAIMS.claim(`${this.parts.folderKey}\u0000${sessionId}`, owner);
    return local.granted ? await claimLockFile(this.parts.folder.root, sessionLockFile(this.dir, sessionId), owner, local, () => this.parts.folder.mkdir()) : local;
  }
}
