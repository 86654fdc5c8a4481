import { constants } from 'node:fs';
import { realpath, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ChatMessage } from '../model/chat-message.js';
import { isWithin, makeConfinedFolder, openConfined, writeConfinedFile, type ConfinedRoot } from './confined-file.js';
import { FileSessionSummaries } from './file-session-summaries.js';
import { FileSessionGrants, storeSeal } from './file-session-grants.js';
import { archivedMark, HistorySeal } from './history-seal.js';
import { ownedTaskIds, StartedTasks } from './owned-task-ids.js';
import { NotRegularFileError } from './not-regular-file-error.js';
import { removeConfinedFiles } from './remove-confined-files.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { assertSessionId } from './session-id.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
import { SESSION_FILE_SUFFIXES, sessionFileName, type SessionFileKind } from './session-file-name.js';
import { sessionTitle } from './session-title.js';
import { UnsafeLinkError } from './unsafe-link-error.js';
import { UnsealedSessionError } from './unsealed-session-error.js';

const { O_APPEND, O_CREAT, O_RDONLY, O_RDWR } = constants;

/**
 * Which run holds which session, for every file store of this process, keyed by the folder
 * and the session: two engines each given their own store of one workspace must still run a
 * conversation one turn at a time (their turns would interleave in one file). Only live
 * claims are kept, so the map does not grow with the folders a process has used.
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
 * messages are never lost. Task files are written to a temporary
 * file and renamed, so they are whole or absent.
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
 * History: for the same reason each message line carries a seal (the same key, over the
 * folder, the session and the message: `history-seal.ts`). A session file holding a message
 * without a valid seal (planted, copied from another session or folder, changed, or written
 * before history was sealed) is not loaded: `load`, `loadArchive` and a compaction fail with
 * an {@link UnsealedSessionError} saying what was found and what to do, and the file is left
 * as it is. `options.trustUnsealed` names sessions the user has checked: their first load
 * seals what they hold. Without a usable key history is written and read unsealed, as before.
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
  private readonly checked = new Set<string>();
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
        append: (sessionId, lines) => this.appendLines(this.file(sessionId, 'grants'), lines),
      },
      seal,
    );
    this.history = new HistorySeal(seal, () => realpath(this.dir));
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
    return [...(await this.checkedMessages(sessionId, 'archive')), ...messages.slice(live)];
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
      const lines = await this.readLines(file);
      const { messages, unsealedLines } = await this.history.read(sessionId, lines);
      if (unsealedLines.length === 0) continue;
      const mark = kind === 'messages' ? `${JSON.stringify({ archived: archivedMark(lines[0]) })}\n` : '';
      await this.writeWhole(file, mark + (await this.history.lines(sessionId, messages)));
    }
    this.trusted.delete(sessionId);
  }

  /**
   * The first prompt of the whole transcript, for the summary of a session written before
   * summaries. Read unchecked: it is a label in `list` only (a planted summary could name
   * any), and loading the session still checks every message.
   */
  private async earlierTitle(sessionId: string): Promise<string> {
    const read = async (kind: 'messages' | 'archive'): Promise<ChatMessage[]> => (await this.history.read(sessionId, await this.readLines(this.file(sessionId, kind)))).messages;
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
    await writeConfinedFile(this.root, this.file(info.taskId, 'task'), JSON.stringify(info));
    this.started.add(info);
  }

  async loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    try {
      return JSON.parse(await this.read(this.file(taskId, 'task'))) as TaskSessionInfo;
    } catch (e) {
      // Say why (a planted link, FIFO or folder), rather than act as if the task were unknown.
      if (e instanceof UnsafeLinkError || NotRegularFileError.isInstance(e)) throw e;
      return undefined;
    }
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
    for (const taskId of task ? [] : await ownedTaskIds(this.root, this.dir, sessionId, (name) => this.read(join(this.dir, name)))) {
      this.started.take(taskId);
      left.push(...(await this.removeFiles(taskId)));
    }
    if (left[0] !== undefined) throw new NotRegularFileError(left[0], 'directory');
  }

  /** Removes one session's files, once its writes queued so far are done; answers the folders planted under their names, left. */
  private async removeFiles(sessionId: string): Promise<string[]> {
    await this.queues.get(sessionId);
    this.summaries.forget(sessionId);
    const files = (Object.keys(SESSION_FILE_SUFFIXES) as SessionFileKind[]).map((kind) => this.file(sessionId, kind));
    for (const file of files) this.checked.delete(file);
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
    const lines = await this.readLines(this.file(sessionId, 'messages'));
    return { messages: await this.checkedMessages(sessionId, 'messages', lines), live: archivedMark(lines[0]) };
  }

  /**
   * The messages of one of the session's history files (its `lines`, read when not given).
   *
   * @throws {@link UnsealedSessionError} when one has no valid seal: none is taken as the conversation.
   */
  private async checkedMessages(sessionId: string, kind: 'messages' | 'archive', lines?: readonly string[]): Promise<ChatMessage[]> {
    const file = this.file(sessionId, kind);
    const { messages, unsealedLines } = await this.history.read(sessionId, lines ?? (await this.readLines(file)));
    if (unsealedLines.length > 0) throw new UnsealedSessionError(sessionId, file, unsealedLines);
    return messages;
  }

  /** A file's lines; none for a file that does not exist. */
  private async readLines(file: string): Promise<string[]> {
    try {
      return (await this.read(file)).split('\n');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  }

  private async rewrite(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.mkdir();
    // Checked before anything is written: an unsealed message must not be sealed into the archive.
    const current = await this.readSession(sessionId);
    await this.summaries.keep(sessionId, messages);
    const unarchived = current.messages.slice(current.live);
    if (unarchived.length > 0) await this.appendLines(this.file(sessionId, 'archive'), await this.history.lines(sessionId, unarchived));
    // The mark has no `role`, so reading skips it like a cut line.
    await this.writeWhole(this.file(sessionId, 'messages'), `${JSON.stringify({ archived: messages.length })}\n${await this.history.lines(sessionId, messages)}`);
  }

  /** Writes a history file whole (a temporary file renamed over it), ending with a newline. */
  private async writeWhole(file: string, text: string): Promise<void> {
    await writeConfinedFile(this.root, file, text);
    this.checked.add(file); // it ends with a newline
  }

  private async read(file: string): Promise<string> {
    const handle = await openConfined(this.root, file, O_RDONLY);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  private async write(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.mkdir();
    // The summary first: a transcript never exists without one (but from before summaries).
    await this.summaries.keep(sessionId, messages);
    await this.appendLines(this.file(sessionId, 'messages'), await this.history.lines(sessionId, messages));
  }

  /**
   * Appends whole lines to a JSON-lines file (messages, archive, grants), starting on a fresh
   * line when a crash or a failed write cut its last one: else the first new line would be
   * glued to the cut one, and both lost.
   */
  private async appendLines(file: string, lines: string): Promise<void> {
    let handle: FileHandle | undefined;
    try {
      handle = await openConfined(this.root, file, O_RDWR | O_APPEND | O_CREAT);
      let lead = '';
      if (!this.checked.has(file)) {
        this.checked.add(file);
        if (!(await endsWithNewline(handle))) lead = '\n';
      }
      await handle.appendFile(lead + lines);
    } catch (e) {
      // The write may have stopped mid-line: the next append checks the end of the file again.
      this.checked.delete(file);
      throw e;
    } finally {
      await handle?.close();
    }
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
   * Claims the session for one run, in this process (see {@link SessionStore.claim}), for
   * every store of this folder in it. Two processes on one folder do not see each other's
   * claims: give each its own folder, or use the Redis backend's store.
   */
  claim(sessionId: string, owner: string): SessionClaim {
    assertSessionId(sessionId);
    // A NUL cannot be in a path, so no folder and session pair reads as another.
    return FOLDER_CLAIMS.claim(`${this.folder}\u0000${sessionId}`, owner);
  }

  /** Every file of a session is named here (an id that cannot name a session is refused there). */
  private file(id: string, kind: SessionFileKind): string {
    return join(this.dir, sessionFileName(id, kind));
  }
}

/** True for an empty file, or one whose last byte is a newline. */
async function endsWithNewline(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}
