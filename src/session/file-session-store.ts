import type { ChatMessage } from '../model/chat-message.js';
import { errnoOf } from '../errors/errno-of.js';
import { DeletedConversations } from './deleted-conversations.js';
import type { Lifetime } from './ephemeral-lifetimes.js';
import { fileSessionParts, type FileSessionParts } from './file-session-parts.js';
import { FileSessionRemoval } from './file-session-removal.js';
import type { NotRegularFileError } from './not-regular-file-error.js';
import { claimFileSession } from './file-session-claim.js';
import { makeConfinedFolder } from './confined-file.js';
import type { SessionClaim } from './session-claim.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
import type { UnsafeLinkError } from './unsafe-link-error.js';
import type { UnsealedSessionError } from './unsealed-session-error.js';

/**
 * A {@link SessionStore} on disk: one JSON-lines file per session under
 * `<workspace>/.rxharness/sessions/` (one message per line, appended), and a small JSON file
 * per task session for resume; both survive restarts. A compacted session keeps its whole
 * transcript in `<id>.archive.jsonl`; `<id>.summary.json` (real id, title, last activity) lets
 * {@link FileSessionStore.list} work without reading transcripts. `<id>` is the file stem
 * (`sessionFileStem`): the id when plain, else encoded, so no id's files are another's. The
 * sessions guide (docs/sessions.md) says the same at length.
 *
 * Crash safety: an append is one write, so a crash can only cut the last line, which loading
 * skips (the next append starts a fresh line); task files are renamed into place, whole or absent.
 *
 * Confinement: the folder lies in the workspace, where a model's command can plant links. A
 * file is reached only if no link on the way leads out of the workspace (out of `options.dir`
 * given outside it) and it is no link itself, else {@link UnsafeLinkError}; a FIFO, folder,
 * socket or device under a file's name is never opened (a FIFO would block): {@link NotRegularFileError}.
 *
 * Grants, history and tasks: the folder's files are untrusted input, so each "always" grant,
 * message line, compaction mark and task file is sealed (HMAC-SHA256) with a key of the user's
 * kept outside the workspace (`options.grantKey`, else `~/.rxharness/grant.key`, made when
 * missing), over the folder's real path, the session and what it seals (`grant-seal.ts`,
 * `history-seal.ts`, `task-seal.ts`). A grant without a valid seal grants nothing (the run's
 * `grant-skipped` Warning counts it); a session file or task file without one is not taken:
 * {@link UnsealedSessionError}, saying what was found and what to do, the file left as it is
 * (`options.trustUnsealed` names sessions the user has checked: their first load seals them).
 * Without a usable key (corrupt, unwritable or inside the workspace) a process warning
 * (`RXHARNESS_GRANT_KEY_UNUSABLE`) says why: grants hold for the life of the process, and
 * history and task files are written and read unsealed.
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
    this.removal = new FileSessionRemoval(this.parts, (taskId) => this.endLifetime(taskId));
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
   * The task infos of the conversation's tasks among the 1,000 task files of the folder
   * written last (`MAX_LISTED_TASK_FILES`): its sealed task files naming it as their owner
   * (`ownedTaskInfos`; a file planted, changed or from before the conversation's last delete
   * is passed over). Asked only to name the tasks of a `task`/`multitask` call cut before it
   * answered, saved (or saved again, by a resume) in the turn being closed: among the newest,
   * so a folder of many thousand tasks costs the times of its files and a bounded number of
   * reads, not every file.
   */
  listTaskInfos(ownerSessionId: string): Promise<TaskSessionInfo[]> {
    return this.parts.tasks.recentInfosOf(ownerSessionId);
  }

  /**
   * Removes a session's files, and its tasks' (`ownedTaskInfos`: a new conversation of the id
   * must not resume them); an unknown id is no error. The files and the scan for its tasks run
   * in the session's queue, one write: a task saved before the delete was asked is found and
   * removed, one saved after is never touched by it (and is refused while the conversation is
   * not written anew: {@link saveTaskInfo}). A task session owns no tasks: the delete of one
   * this store saved (`StartedTasks`), or whose sealed task file it finds in its turn, reads no
   * other task file (an ephemeral run deletes each of its), and is not remembered as a deleted
   * conversation's (`DeletedConversations`: the task file decides, read before it goes).
   * A FIFO, socket or device planted under a file's name is removed with the files; a folder
   * is left, and a {@link NotRegularFileError} names it once everything else is removed.
   *
   * The way to the files is checked first: blocked (a file, or a link to one, where the folder
   * should be; a link loop) or leading out of the workspace, the delete fails having written and
   * removed nothing. Then, in the session's queue, the conversation's lifetime ends (a count kept
   * outside the workspace, beside the grant key, that every seal binds): its files kept aside
   * and put back after the delete grant and load nothing. When that count cannot be read or
   * written, the delete still removes the files and then fails with an error saying why. A task
   * session of a run without a `sessionId` counts nothing: its seals bind a random lifetime kept
   * in the process, which its delete forgets (`EphemeralLifetimes`), leaving no file behind.
   */
  delete(sessionId: string): Promise<void> {
    // The lifetime ends in the removal's turn, just before the files go: no write slips in between.
    return this.removal.delete(sessionId, this.deleted.deleted(sessionId));
  }

  /**
   * Ends the session's lifetime, answering the one that ended, under both paths of the folder
   * the reads use (`sessionFolderPaths`): its real path (a folder missing, moved aside during
   * the delete, by the one it has once put back) and the path the store was opened with, which
   * no link moved or retargeted in the workspace changes: either way its files, put back,
   * grant and load nothing.
   */
  private endLifetime(sessionId: string): Promise<Lifetime | undefined> {
    return this.parts.grants.endLifetime(sessionId);
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
   * `true` once the store's grant key is known to be usable (`grantKey` given, or the key file
   * read, which the first load or write of a session does): what {@link saveGrant} keeps is then
   * what {@link loadGrants} lists for every store on the folder with that key, so each run of
   * a conversation takes its grants from the folder alone (see {@link SessionStore.keepsGrants}):
   * an "always" whose save failed, or one of a conversation deleted and made anew through
   * another store, is asked again. `false` without a usable key: grants then hold in memory.
   */
  get keepsGrants(): boolean {
    return this.parts.grants.kept;
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
   * A folder removed or moved aside since this store made it is made again (a delete's claim
   * then succeeds, and the delete ends the conversation's lifetime there).
   */
  async claim(sessionId: string, owner: string): Promise<SessionClaim> {
    try {
      return await claimFileSession(this.parts, sessionId, owner);
    } catch (e) {
      // The folder, made once by this store, is gone: its lock file could not be created.
      if (errnoOf(e) !== 'ENOENT') throw e;
      await makeConfinedFolder(this.parts.folder.root, this.dir);
      return claimFileSession(this.parts, sessionId, owner);
    }
  }
}
