import { constants } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { ChatMessage } from '../model/chat-message.js';
import { isWithin, makeConfinedFolder, openConfined, writeConfinedFile, type ConfinedRoot } from './confined-file.js';
import { FileSessionSummaries } from './file-session-summaries.js';
import { FileSessionGrants, storeSeal } from './file-session-grants.js';
import { HistoryAppender } from './history-appender.js';
import { EMPTY_HISTORY, HistorySeal, type HistoryKind, type ReadHistory } from './history-seal.js';
import { LineAppender } from './line-appender.js';
import { ownedTaskIds, StartedTasks } from './owned-task-ids.js';
import { NotRegularFileError } from './not-regular-file-error.js';
import { removeConfinedFiles } from './remove-confined-files.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { claimLockFile, sessionLockFile } from './session-lock-file.js';
import { assertSessionId } from './session-id.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
import { SESSION_FILE_SUFFIXES, sessionFileName, type SessionFileKind } from './session-file-name.js';
import { TaskSeal } from './task-seal.js';
import { sessionTitle } from './session-title.js';
import { UnsafeLinkError } from './unsafe-link-error.js';
import { UnsealedSessionError } from './unsealed-session-error.js';
import { errnoOf } from '../errors/errno-of.js';
import { readWhole } from './read-whole.js';
import { SessionFileTooLargeError } from './session-file-too-large-error.js';

const { O_RDONLY } = constants;

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
  private readonly queues = new Map<string, Promise<void>>();
  private readonly root: ConfinedRoot;
  private ready: Promise<unknown> | undefined;
  /** The folder as {@link FOLDER_CLAIMS} keys it. */
  private readonly folder: string;
  /** The sessions' summary files, which {@link FileSessionStore.list} reads. */
  private readonly summaries: FileSessionSummaries;
  /** The stored "always" approvals, signed. */
  private readonly grants: FileSessionGrants;
  /** Seals the messages written and checks those read. */
  private readonly history: HistorySeal;
  /** Appends sealed messages at their places. */
  private readonly appender: HistoryAppender;
  /** Appends grant lines. */
  private readonly lines: LineAppender;
  /** Seals the task files written and checks those read. */
  private readonly tasks: TaskSeal;
  /** The sessions whose unsealed messages the user trusts, until their first load has sealed them. */
  private readonly trusted: Set<string>;
  /** The task sessions saved in this process: deleting one scans no task file. */
  private readonly started = new StartedTasks();

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
    this.dir = options.dir ?? join(workspace, '.rxharness', 'sessions');
    const base = resolve(workspace);
    this.folder = resolve(this.dir);
    this.root = isWithin(base, this.folder) ? { path: base, label: 'the workspace' } : { path: this.folder, label: 'the session folder' };
    const seal = storeSeal({ workspace: base, grantKey: options.grantKey, home: options.home });
    this.grants = new FileSessionGrants(
      this.dir,
      {
        mkdir: () => this.mkdir(),
        read: (sessionId) => this.read(this.file(sessionId, 'grants')),
        append: (sessionId, lines) => this.lines.append(this.file(sessionId, 'grants'), lines),
      },
      seal,
    );
    this.lines = new LineAppender(this.root);
    this.history = new HistorySeal(seal, () => realpath(this.dir));
    this.appender = new HistoryAppender(this.root, this.history);
    this.tasks = new TaskSeal(seal, () => realpath(this.dir));
    this.trusted = new Set(options.trustUnsealed);
    this.summaries = new FileSessionSummaries(this.root, this.dir, {
      earlierTitle: (sessionId) => this.earlierTitle(sessionId),
      enqueue: (sessionId, task) => this.enqueue(sessionId, task),
    });
  }

  /** The session's messages; an {@link UnsealedSessionError} when its file holds one without a valid seal (see the class). */
  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.settled(sessionId);
    return (await this.readSession(sessionId)).messages;
  }

  append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    return this.enqueue(sessionId, () => this.write(sessionId, messages));
  }

  /**
   * Replaces a session's messages (a compaction): the messages the archive
   * (`<id>.archive.jsonl`) does not hold yet are appended to it, then the session file is
   * rewritten whole (a temporary file renamed over it), its first line saying how many of its
   * messages the archive accounts for. In the session's write queue, like `append`.
   */
  replace(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    return this.enqueue(sessionId, () => this.rewrite(sessionId, messages));
  }

  /** The whole transcript: the archive, then what the session gained since its last compaction (checked as `load`). */
  async loadArchive(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.settled(sessionId);
    const { messages, live } = await this.readSession(sessionId);
    return [...(await this.checkedHistory(sessionId, 'archive')).messages, ...messages.slice(live)];
  }

  /** Waits for the session's writes queued so far; for a trusted session, seals what it holds first (once). */
  private async settled(sessionId: string): Promise<void> {
    if (this.trusted.has(sessionId)) await this.enqueue(sessionId, () => this.sealTrusted(sessionId));
    else await this.queues.get(sessionId);
  }

  /** Rewrites each of a trusted session's files holding an unsealed message with all its messages sealed, then trusts no more. */
  private async sealTrusted(sessionId: string): Promise<void> {
    for (const kind of ['messages', 'archive'] as const) {
      const file = this.file(sessionId, kind);
      const { messages, unsealedLines, end } = await this.history.read(sessionId, kind, await this.readLines(file));
      if (unsealedLines.length === 0) continue;
      const text = kind === 'messages' ? this.history.compacted(sessionId, end.archived, messages) : this.history.lines(sessionId, kind, EMPTY_HISTORY, messages);
      await this.writeWhole(file, await text);
    }
    this.trusted.delete(sessionId);
  }

  /**
   * The first prompt of the whole transcript, for the summary of a session written before
   * summaries. Read unchecked: it is a label in `list` only (a planted summary could name
   * any), and loading the session still checks every message.
   */
  private async earlierTitle(sessionId: string): Promise<string> {
    const read = async (kind: HistoryKind): Promise<ChatMessage[]> => (await this.history.read(sessionId, kind, await this.readLines(this.file(sessionId, kind)))).messages;
    return sessionTitle([...(await read('archive')), ...(await read('messages'))]);
  }

  private enqueue<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(task);
    // The queue holds a settled promise either way; the caller still sees the failure.
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(sessionId, tail);
    void tail.then(() => {
      if (this.queues.get(sessionId) === tail) this.queues.delete(sessionId);
    });
    return next;
  }

  async saveTaskInfo(info: TaskSessionInfo): Promise<void> {
    await this.mkdir();
    await writeConfinedFile(this.root, this.file(info.taskId, 'task'), await this.tasks.text(info));
    this.started.add(info);
  }

  /**
   * What {@link saveTaskInfo} stored for the task; `undefined` when nothing (or no task
   * info) is stored. A task file without a valid seal (an HMAC under the grants' key of the
   * folder and every field) is refused with an {@link UnsealedSessionError} saying what to do,
   * rather than taken for the task's owner.
   */
  async loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    const file = this.file(taskId, 'task');
    let text: string;
    try {
      text = await this.read(file);
    } catch (e) {
      // Say why (a planted link, FIFO, folder or huge file), rather than act as if the task were unknown.
      if (e instanceof UnsafeLinkError || NotRegularFileError.isInstance(e) || SessionFileTooLargeError.isInstance(e)) throw e;
      return undefined;
    }
    const info = await this.tasks.read(text, basename(file));
    if (info === 'unsealed') throw new UnsealedSessionError(taskId, file, [1], 'task');
    return info;
  }

  /**
   * Removes a session's files, and its tasks' (`ownedTaskIds`: a new conversation of the id
   * must not resume them); an unknown id is no error. A task session this store saved owns no
   * tasks (`StartedTasks`): its delete reads no task file (an ephemeral run deletes each of its).
   * A FIFO, socket or device planted under a file's name is removed with the files; a folder
   * is left, and a {@link NotRegularFileError} names it once everything else is removed.
   */
  async delete(sessionId: string): Promise<void> {
    const task = this.started.take(sessionId);
    const left = await this.removeFiles(sessionId);
    // Only task files this store sealed: a planted one must not make this delete remove another session.
    const info = async (name: string): Promise<TaskSessionInfo | undefined> => {
      const found = await this.tasks.read(await this.read(join(this.dir, name)), name);
      return found === 'unsealed' ? undefined : found;
    };
    for (const taskId of task ? [] : await ownedTaskIds(this.root, this.dir, sessionId, info)) {
      this.started.take(taskId);
      left.push(...(await this.removeFiles(taskId)));
    }
    if (left[0] !== undefined) throw new NotRegularFileError(left[0], 'directory');
  }

  /** Removes one session's files, once its writes queued so far are done; answers the folders planted under their names, left. */
  private async removeFiles(sessionId: string): Promise<string[]> {
    await this.queues.get(sessionId);
    this.summaries.forget(sessionId);
    // The grants first: a delete stopped on the way (a file that cannot be removed) must not
    // leave the "always" approvals to a later conversation of the id.
    const kinds = (Object.keys(SESSION_FILE_SUFFIXES) as SessionFileKind[]).sort((a, b) => Number(b === 'grants') - Number(a === 'grants'));
    const files = kinds.map((kind) => this.file(sessionId, kind));
    for (const file of files) {
      this.lines.forget(file);
      this.appender.forget(file);
    }
    return removeConfinedFiles(this.root, files);
  }

  /**
   * The conversations in the folder (task sessions left out), the most recently written first
   * (a session's time is in its summary, written with each write and never set back), a page
   * of them with a `request`: sessions written since the previous page move to the front, so
   * paging neither repeats nor skips the others. Reads the folder and every summary, never a
   * transcript (except once for a session written before summaries, which then gets one, and
   * the time of one whose summary has none, which then gets it). A summary the store did not
   * write (corrupt, planted, a link) leaves its session out, with a process warning
   * (`RXHARNESS_BAD_SESSION_SUMMARY`), and does not hide the others.
   */
  list(request?: SessionListRequest): Promise<SessionSummary[]> {
    return this.summaries.list(request);
  }

  /**
   * The conversation's "always" approvals (`<id>.grants.jsonl`, one per line). A line cut by
   * a crash is skipped; a line that is no grant this store's key signed for this folder and
   * session comes back as an entry that is no grant (`{ notSigned: true }`), so that the run
   * counts it in its `grant-skipped` Warning and asks again.
   */
  loadGrants(sessionId: string): Promise<readonly ApprovalGrant[]> {
    return this.grants.load(sessionId);
  }

  /** Keeps a signed grant; without a usable key, nothing (the grant holds in memory only, see the class). */
  saveGrant(sessionId: string, grant: ApprovalGrant): Promise<void> {
    return this.grants.save(sessionId, grant);
  }

  /** The session's messages, checked, and how many of them (from the start) its archive accounts for. */
  private async readSession(sessionId: string): Promise<{ messages: ChatMessage[]; live: number }> {
    const { messages, end } = await this.checkedHistory(sessionId, 'messages');
    return { messages, live: end.archived };
  }

  /**
   * One of the session's history files, read.
   *
   * @throws {@link UnsealedSessionError} when a line has no valid seal: none is taken as the conversation.
   */
  private async checkedHistory(sessionId: string, kind: HistoryKind): Promise<ReadHistory> {
    const file = this.file(sessionId, kind);
    const read = await this.appender.read(file, sessionId, kind);
    if (read.unsealedLines.length > 0) throw new UnsealedSessionError(sessionId, file, read.unsealedLines);
    return read;
  }

  /** A file's lines; none for a file that does not exist. */
  private async readLines(file: string): Promise<string[]> {
    try {
      return (await this.read(file)).split('\n');
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return [];
      throw e;
    }
  }

  private async rewrite(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.mkdir();
    // Checked before anything is written: an unsealed message must not be sealed into the archive.
    const current = await this.readSession(sessionId);
    await this.summaries.keep(sessionId, messages);
    const unarchived = current.messages.slice(current.live);
    if (unarchived.length > 0) await this.appender.append(this.file(sessionId, 'archive'), sessionId, 'archive', unarchived);
    // The mark has no `role`, so reading skips it like a cut line.
    await this.writeWhole(this.file(sessionId, 'messages'), await this.history.compacted(sessionId, messages.length, messages));
  }

  /** Writes a history file whole (a temporary file renamed over it), ending with a newline. */
  private async writeWhole(file: string, text: string): Promise<void> {
    await writeConfinedFile(this.root, file, text);
    this.appender.forget(file); // another file now: the next append reads where it ends
  }

  private async read(file: string): Promise<string> {
    const handle = await openConfined(this.root, file, O_RDONLY);
    try {
      return (await readWhole(handle, file)).toString('utf8');
    } finally {
      await handle.close();
    }
  }

  private async write(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.mkdir();
    // The summary first: a transcript never exists without one (but from before summaries).
    await this.summaries.keep(sessionId, messages);
    await this.appender.append(this.file(sessionId, 'messages'), sessionId, 'messages', messages);
  }

  /** Makes the folder once; a failure (a link planted on the way) is tried again next time. */
  private mkdir(): Promise<unknown> {
    this.ready ??= makeConfinedFolder(this.root, this.dir).catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  /**
   * Claims the session for one run (see {@link SessionStore.claim}) for every store of this
   * folder, in this process and in others: `<id>.lock` beside its files (`session-lock-file.ts`).
   */
  async claim(sessionId: string, owner: string): Promise<SessionClaim> {
    assertSessionId(sessionId);
    // A NUL cannot be in a path, so no folder and session pair reads as another.
    const local = FOLDER_CLAIMS.claim(`${this.folder}\u0000${sessionId}`, owner);
    return local.granted ? await claimLockFile(this.root, sessionLockFile(this.dir, sessionId), owner, local, () => this.mkdir()) : local;
  }

  /** Every file of a session is named here (an id that cannot name a session is refused there). */
  private file(id: string, kind: SessionFileKind): string {
    return join(this.dir, sessionFileName(id, kind));
  }
}
