import { appendFile, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ChatMessage } from '../model/chat-message.js';
import type { SessionStore, TaskSessionInfo } from './session-store.js';

/**
 * A {@link SessionStore} on disk: one JSON-lines file per session under
 * `<workspace>/.rxharness/sessions/` (one message per line, appended), and a small JSON file
 * per task session for resume. Sessions and task resumes survive restarts.
 *
 * Crash safety: a message is one line written by one append, so a crash mid-write can only
 * cut the last line. Loading skips a line that does not parse, and the next append (after a
 * restart, or after a failed write in this process) starts on a fresh line, so other
 * messages are never lost. Task files are written to a temporary
 * file and renamed, so they are whole or absent.
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
  private ready: Promise<unknown> | undefined;

  /** Stores under `<workspace>/.rxharness/sessions/`, or under `options.dir` when given. */
  constructor(workspace: string, options: { dir?: string } = {}) {
    this.dir = options.dir ?? join(workspace, '.rxharness', 'sessions');
  }

  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.queues.get(sessionId);
    let text: string;
    try {
      text = await readFile(this.file(sessionId, '.jsonl'), 'utf8');
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
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(() => this.write(sessionId, messages));
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
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(info));
    await rename(temporary, target);
  }

  async loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    try {
      return JSON.parse(await readFile(this.file(taskId, '.task.json'), 'utf8')) as TaskSessionInfo;
    } catch {
      return undefined;
    }
  }

  private async write(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.mkdir();
    const file = this.file(sessionId, '.jsonl');
    let lead = '';
    if (!this.checked.has(file)) {
      this.checked.add(file);
      if (!(await endsWithNewline(file))) lead = '\n';
    }
    try {
      await appendFile(file, lead + messages.map((m) => JSON.stringify(m) + '\n').join(''));
    } catch (e) {
      // The write may have stopped mid-line: the next append checks the end of the file again.
      this.checked.delete(file);
      throw e;
    }
  }

  private mkdir(): Promise<unknown> {
    return (this.ready ??= mkdir(this.dir, { recursive: true }));
  }

  private file(id: string, suffix: string): string {
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

/** True for a missing or empty file, or one whose last byte is a newline. */
async function endsWithNewline(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return true;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
