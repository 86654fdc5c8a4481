import { constants } from 'node:fs';
import { rename, rm, type FileHandle } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { ChatMessage } from '../model/chat-message.js';
import { checkConfined, isWithin, makeConfinedFolder, openConfined, writeConfinedFile, type ConfinedRoot } from './confined-file.js';
import { FileSessionSummaries } from './file-session-summaries.js';
import { FileSessionGrants } from './file-session-grants.js';
import { ownedTaskIds } from './owned-task-ids.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { assertSessionId } from './session-id.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
import { SESSION_FILE_SUFFIXES, sessionFileName, type SessionFileKind } from './session-file-name.js';
import { sessionTitle } from './session-title.js';
import { UnsafeLinkError } from './unsafe-link-error.js';

const { O_APPEND, O_CREAT, O_EXCL, O_RDONLY, O_RDWR, O_WRONLY } = constants;

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
 * nothing is written or read.
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

  /**
   * Stores under `<workspace>/.rxharness/sessions/`, or under `options.dir` when given.
   * Files stay inside the workspace, or inside `options.dir` when that lies outside it.
   * `options.grantKey` signs the grants (see the class); without it, the key file in
   * `options.home` (default `os.homedir()`): `<home>/.rxharness/grant.key`.
   *
   * @throws TypeError for an empty `grantKey`.
   */
  constructor(workspace: string, options: { dir?: string; grantKey?: Uint8Array | string; home?: string } = {}) {
    this.dir = options.dir ?? join(workspace, '.rxharness', 'sessions');
    const base = resolve(workspace);
    this.folder = resolve(this.dir);
    this.root = isWithin(base, this.folder) ? { path: base, label: 'the workspace' } : { path: this.folder, label: 'the session folder' };
    this.grants = new FileSessionGrants(
      this.dir,
      {
        mkdir: () => this.mkdir(),
        read: (sessionId) => this.read(this.file(sessionId, 'grants')),
        append: (sessionId, lines) => this.appendLines(this.file(sessionId, 'grants'), lines),
      },
      { workspace: base, grantKey: options.grantKey, home: options.home },
    );
    this.summaries = new FileSessionSummaries(this.root, this.dir, {
      earlierTitle: async (sessionId) => sessionTitle(await this.transcript(sessionId)),
      enqueue: (sessionId, task) => this.enqueue(sessionId, task),
    });
  }

  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.queues.get(sessionId);
    let text: string;
    try {
      text = await this.read(this.file(sessionId, 'messages'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const messages: ChatMessage[] = [];
    for (const line of text.split('\n')) {
      const message = parseLine(line);
      if (message) messages.push(message);
    }
    return messages;
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

  /** The whole transcript: the archive, then what the session gained since its last compaction. */
  async loadArchive(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.queues.get(sessionId);
    return this.transcript(sessionId);
  }

  /** The whole transcript as the files hold it now (in the write queue, or after waiting for it). */
  private async transcript(sessionId: string): Promise<ChatMessage[]> {
    const { messages, live } = await this.readSession(sessionId);
    const archived = await this.readLines(this.file(sessionId, 'archive'));
    return [...archived.flatMap((line) => parseLine(line) ?? []), ...messages.slice(live)];
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
  }

  async loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    try {
      return JSON.parse(await this.read(this.file(taskId, 'task'))) as TaskSessionInfo;
    } catch (e) {
      if (e instanceof UnsafeLinkError) throw e; // say why, rather than act as if the task were unknown
      return undefined;
    }
  }

  /** Removes a session's files, and its tasks' (`ownedTaskIds`: a new conversation of the id must not resume them); an unknown id is no error. */
  async delete(sessionId: string): Promise<void> {
    await this.removeFiles(sessionId);
    for (const taskId of await ownedTaskIds(this.root, this.dir, sessionId, (name) => this.read(join(this.dir, name)))) await this.removeFiles(taskId);
  }

  /** Removes one session's files, once its writes queued so far are done. */
  private async removeFiles(sessionId: string): Promise<void> {
    await this.queues.get(sessionId);
    this.summaries.forget(sessionId);
    for (const kind of Object.keys(SESSION_FILE_SUFFIXES) as SessionFileKind[]) {
      const file = this.file(sessionId, kind);
      // The folders on the way must stay inside; the file itself may be a link (rm removes the link).
      await checkConfined(this.root, file, 'folder');
      await rm(file, { force: true });
      this.checked.delete(file);
    }
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

  /** The session's messages, and how many of them (from the start) its archive accounts for. */
  private async readSession(sessionId: string): Promise<{ messages: ChatMessage[]; live: number }> {
    const lines = await this.readLines(this.file(sessionId, 'messages'));
    return { messages: lines.flatMap((line) => parseLine(line) ?? []), live: archivedMark(lines[0]) };
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
    await this.summaries.keep(sessionId, messages);
    const current = await this.readSession(sessionId);
    const unarchived = current.messages.slice(current.live);
    if (unarchived.length > 0) await this.appendLines(this.file(sessionId, 'archive'), unarchived.map((m) => JSON.stringify(m) + '\n').join(''));
    const target = this.file(sessionId, 'messages');
    await checkConfined(this.root, target, 'file');
    const temporary = `${target}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    const handle = await openConfined(this.root, temporary, O_WRONLY | O_CREAT | O_EXCL);
    try {
      // The mark has no `role`, so `load` skips it like a cut line.
      await handle.writeFile([JSON.stringify({ archived: messages.length }), ...messages.map((m) => JSON.stringify(m))].join('\n') + '\n');
      await handle.close();
      await checkConfined(this.root, target, 'file');
      await rename(temporary, target);
      this.checked.add(target); // it ends with a newline
    } catch (e) {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw e;
    }
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
    await this.appendLines(this.file(sessionId, 'messages'), messages.map((m) => JSON.stringify(m) + '\n').join(''));
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

function parseLine(line: string): ChatMessage | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as ChatMessage;
    return typeof value === 'object' && value !== null && typeof value.role === 'string' ? value : undefined;
  } catch {
    return undefined; // a line cut by a crash
  }
}

/** How many leading messages the archive accounts for, from a session file's first line (0 without a mark). */
function archivedMark(line: string | undefined): number {
  if (line === undefined || !line.startsWith('{"archived":')) return 0;
  try {
    const { archived } = JSON.parse(line) as { archived?: unknown };
    return typeof archived === 'number' && Number.isInteger(archived) && archived >= 0 ? archived : 0;
  } catch {
    return 0;
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
