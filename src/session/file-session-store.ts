import { constants } from 'node:fs';
import { readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { createHash, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { ChatMessage } from '../model/chat-message.js';
import { checkConfined, isWithin, makeConfinedFolder, openConfined, type ConfinedRoot } from './confined-file.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { assertSessionId } from './session-id.js';
import type { ApprovalGrant, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
import { sessionIdOfFile } from './session-file-name.js';
import { sessionTitle } from './session-title.js';
import { UnsafeLinkError } from './unsafe-link-error.js';

const { O_APPEND, O_CREAT, O_EXCL, O_RDONLY, O_RDWR, O_WRONLY } = constants;

/**
 * A {@link SessionStore} on disk: one JSON-lines file per session under
 * `<workspace>/.rxharness/sessions/` (one message per line, appended), and a small JSON file
 * per task session for resume. Sessions and task resumes survive restarts. A compacted
 * session keeps its whole transcript beside it, in `<id>.archive.jsonl`.
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
  /** Which run holds which session, in this process. */
  private readonly claims = new LocalClaims();

  /**
   * Stores under `<workspace>/.rxharness/sessions/`, or under `options.dir` when given.
   * Files stay inside the workspace, or inside `options.dir` when that lies outside it.
   */
  constructor(workspace: string, options: { dir?: string } = {}) {
    this.dir = options.dir ?? join(workspace, '.rxharness', 'sessions');
    const base = resolve(workspace);
    this.root = isWithin(base, resolve(this.dir)) ? { path: base, label: 'the workspace' } : { path: resolve(this.dir), label: 'the session folder' };
  }

  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.queues.get(sessionId);
    let text: string;
    try {
      text = await this.read(this.file(sessionId, '.jsonl'));
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
    const { messages, live } = await this.readSession(sessionId);
    const archived = await this.readLines(this.file(sessionId, '.archive.jsonl'));
    return [...archived.flatMap((line) => parseLine(line) ?? []), ...messages.slice(live)];
  }

  private enqueue(sessionId: string, task: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(task);
    // The queue holds a settled promise either way; the caller still sees the failure.
    const tail = next.catch(() => undefined);
    this.queues.set(sessionId, tail);
    void tail.then(() => {
      if (this.queues.get(sessionId) === tail) this.queues.delete(sessionId);
    });
    return next;
  }

  async saveTaskInfo(info: TaskSessionInfo): Promise<void> {
    await this.mkdir();
    const target = this.file(info.taskId, '.task.json');
    // A link planted as the task file is refused before anything is written (a rename would replace it silently).
    await checkConfined(this.root, target, 'file');
    // A fresh name, created exclusively: a leftover or a planted link of that name cannot be written through.
    const temporary = `${target}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    const handle = await openConfined(this.root, temporary, O_WRONLY | O_CREAT | O_EXCL);
    try {
      await handle.writeFile(JSON.stringify(info));
      await handle.close();
      await checkConfined(this.root, target, 'file');
      await rename(temporary, target);
    } catch (e) {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw e;
    }
  }

  async loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    try {
      return JSON.parse(await this.read(this.file(taskId, '.task.json'))) as TaskSessionInfo;
    } catch (e) {
      if (e instanceof UnsafeLinkError) throw e; // say why, rather than act as if the task were unknown
      return undefined;
    }
  }

  /** Removes a session's files (messages and task info); an unknown id is no error. */
  async delete(sessionId: string): Promise<void> {
    await this.queues.get(sessionId);
    for (const suffix of ['.jsonl', '.archive.jsonl', '.task.json', '.grants.jsonl']) {
      const file = this.file(sessionId, suffix);
      // The folders on the way must stay inside; the file itself may be a link (rm removes the link).
      await checkConfined(this.root, file, 'folder');
      await rm(file, { force: true });
      this.checked.delete(file);
    }
  }

  /**
   * The conversations in the folder (task sessions left out), the most recently changed first:
   * the title from the whole transcript, the last activity from the session file's time. A
   * session whose id was too long for a file name (stored by its hash) cannot be named, so it
   * is not listed.
   */
  async list(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      await checkConfined(this.root, this.dir, 'folder');
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const tasks = new Set(names.filter((name) => name.endsWith('.task.json')).map((name) => name.slice(0, -'.task.json'.length)));
    const summaries: SessionSummary[] = [];
    for (const name of names) {
      const stem = name.endsWith('.jsonl') && !/\.(archive|grants)\.jsonl$/.test(name) ? name.slice(0, -'.jsonl'.length) : undefined;
      const sessionId = stem === undefined || tasks.has(stem) ? undefined : sessionIdOfFile(stem);
      if (sessionId === undefined) continue;
      const summary = await this.#summary(name, sessionId).catch(() => undefined);
      // A file that cannot be read safely (a planted link, a vanished file) is not listed, and
      // does not hide the others; opening that session still says what is wrong with it.
      if (summary) summaries.push(summary);
    }
    return summaries.sort((a, b) => b.lastActivityAt - a.lastActivityAt);
  }

  async #summary(name: string, sessionId: string): Promise<SessionSummary> {
    const handle = await openConfined(this.root, join(this.dir, name), O_RDONLY);
    const { mtimeMs } = await handle.stat().finally(() => handle.close());
    return { sessionId, title: sessionTitle(await this.loadArchive(sessionId)), lastActivityAt: Math.round(mtimeMs) };
  }

  /** The conversation's "always" approvals (`<id>.grants.jsonl`, one per line; a line that is not one is skipped). */
  async loadGrants(sessionId: string): Promise<readonly ApprovalGrant[]> {
    let text: string;
    try {
      text = await this.read(this.file(sessionId, '.grants.jsonl'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    return text.split('\n').flatMap((line) => {
      try {
        return line.trim() === '' ? [] : [JSON.parse(line) as ApprovalGrant];
      } catch {
        return []; // a line cut by a crash
      }
    });
  }

  async saveGrant(sessionId: string, grant: ApprovalGrant): Promise<void> {
    await this.mkdir();
    const handle = await openConfined(this.root, this.file(sessionId, '.grants.jsonl'), O_WRONLY | O_APPEND | O_CREAT);
    try {
      await handle.appendFile(`${JSON.stringify(grant)}\n`);
    } finally {
      await handle.close();
    }
  }

  /** The session's messages, and how many of them (from the start) its archive accounts for. */
  private async readSession(sessionId: string): Promise<{ messages: ChatMessage[]; live: number }> {
    const lines = await this.readLines(this.file(sessionId, '.jsonl'));
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
    const current = await this.readSession(sessionId);
    const unarchived = current.messages.slice(current.live);
    if (unarchived.length > 0) {
      const handle = await openConfined(this.root, this.file(sessionId, '.archive.jsonl'), O_WRONLY | O_APPEND | O_CREAT);
      try {
        await handle.appendFile(unarchived.map((m) => JSON.stringify(m) + '\n').join(''));
      } finally {
        await handle.close();
      }
    }
    const target = this.file(sessionId, '.jsonl');
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
    const file = this.file(sessionId, '.jsonl');
    let handle: FileHandle | undefined;
    try {
      handle = await openConfined(this.root, file, O_RDWR | O_APPEND | O_CREAT);
      let lead = '';
      if (!this.checked.has(file)) {
        this.checked.add(file);
        if (!(await endsWithNewline(handle))) lead = '\n';
      }
      await handle.appendFile(lead + messages.map((m) => JSON.stringify(m) + '\n').join(''));
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
   * Claims the session for one run, in this process (see {@link SessionStore.claim}). Two
   * processes on one folder do not see each other's claims: give each its own folder, or
   * use the Redis backend's store.
   */
  claim(sessionId: string, owner: string): SessionClaim {
    assertSessionId(sessionId);
    return this.claims.claim(sessionId, owner);
  }

  private file(id: string, suffix: string): string {
    // Every file of a session is named here: an id with a lone surrogate (which the hex below
    // would encode as U+FFFD, the name of another id's file) is refused.
    assertSessionId(id);
    // Lower case only (hex for the rest), so "Notes" and "notes" stay two files on a
    // case-insensitive file system (macOS, Windows), and no Windows device name ("con.x").
    const plain = /^[a-z0-9_-][a-z0-9_.-]*$/.test(id) && !WINDOWS_DEVICE.test(id);
    let safe = plain ? id : `~${Buffer.from(id).toString('hex')}`;
    // File names stop at 255 bytes: a long id goes by its hash ("~~" is no hex output).
    if (safe.length > MAX_NAME) safe = `~~${createHash('sha256').update(id).digest('hex')}`;
    return join(this.dir, safe + suffix);
  }
}

/** Names Windows keeps for devices, with any extension: `con`, `nul.jsonl`, `com1.txt`... */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/;

/** The longest file name stem used as it is (leaves room for the suffixes within 255 bytes). */
const MAX_NAME = 200;

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
