import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { ChatMessage } from '../model/chat-message.js';
import { appendingTo, freshLineLead } from './append-lines.js';
import { openConfined, type ConfinedRoot } from './confined-file.js';
import type { HistoryEnd, HistoryKind, HistorySeal, ReadHistory } from './history-seal.js';
import { errnoOf } from '../errors/errno-of.js';
import { readWhole } from './read-whole.js';

const { O_RDONLY } = constants;

/** What an appender knows of a history file it wrote: which file (inode), how long, and where its messages end. */
interface KnownEnd {
  readonly ino: number;
  readonly size: number;
  readonly end: HistoryEnd;
}

/**
 * Appends sealed messages to a `FileSessionStore`'s history files. Each seal binds the
 * message's place in its file ({@link HistorySeal}), so the appender must know where the file
 * ends: it reads the file once, then keeps the end it wrote, and reads again whenever the
 * file is not the one it last wrote (another inode, another size: a compaction renamed over
 * it, another store or process appended to it, a crash cut it). It also starts on a fresh
 * line when the file's last line was cut, so the first new line is not glued to it and lost.
 * The store reads history through it too ({@link HistoryAppender.read}), so a run's first
 * append after loading its session does not read and check every seal of the file again.
 */
export class HistoryAppender {
  private readonly known = new Map<string, KnownEnd>();

  constructor(
    private readonly root: ConfinedRoot,
    private readonly history: HistorySeal,
  ) {}

  /** Appends `messages` to `file`, the `kind` history file of `sessionId`, each sealed at its place (creating the file). */
  async append(file: string, sessionId: string, kind: HistoryKind, messages: readonly ChatMessage[]): Promise<void> {
    await appendingTo(this.root, file, async (handle) => {
      const { ino, size } = await handle.stat();
      const known = this.known.get(file);
      // Forgotten until written whole: a failed write may have stopped mid-line.
      this.known.delete(file);
      const { end, lead, length } = known && known.ino === ino && known.size === size ? { end: known.end, lead: '', length: size } : await this.readEnd(handle, file, sessionId, kind);
      const text = lead + (await this.history.lines(sessionId, kind, end, messages));
      await handle.appendFile(text);
      this.known.set(file, { ino, size: length + Buffer.byteLength(text), end: { ...end, count: end.count + messages.length } });
    });
  }

  /**
   * The `kind` history file of `sessionId` read and checked ({@link HistorySeal.read}); none
   * for a file that does not exist. Where it ends is kept for the next append, while the file
   * stays the one read (same inode and size) and its last line is whole.
   */
  async read(file: string, sessionId: string, kind: HistoryKind): Promise<ReadHistory> {
    let handle: FileHandle | undefined;
    try {
      handle = await openConfined(this.root, file, O_RDONLY);
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return this.history.read(sessionId, kind, []);
      throw e;
    }
    try {
      const [{ ino }, bytes] = [await handle.stat(), await readWhole(handle, file)];
      const text = bytes.toString('utf8');
      const read = await this.history.read(sessionId, kind, text.split('\n'));
      if (text.endsWith('\n') && read.unsealedLines.length === 0) this.known.set(file, { ino, size: bytes.length, end: read.end });
      return read;
    } finally {
      await handle.close();
    }
  }

  /** Forgets what it knew of `file` (rewritten whole, or removed): the next append reads it. */
  forget(file: string): void {
    this.known.delete(file);
  }

  /**
   * Where the open file's messages end, its length, and the newline to write first when its
   * last line was cut. Read whole, not from its end as a compaction reads the archive
   * (`archive-tail.ts`): the next seal binds the next message's index, the count of the file's
   * message lines, and only every line tells it. A line cut by a crash or garbled holds no
   * place, so neither the size nor the last line gives it; no line says its index (the MAC
   * only checks one given), and no count is kept elsewhere. (The archive's tail has its
   * block's line, which says how many messages come before it.) It is read once per file a
   * process did not write last (`known`); a file too large to read whole could not be loaded either.
   */
  private async readEnd(handle: FileHandle, file: string, sessionId: string, kind: HistoryKind): Promise<{ end: HistoryEnd; lead: string; length: number }> {
    const bytes = await readWhole(handle, file);
    const text = bytes.toString('utf8');
    const { end } = await this.history.read(sessionId, kind, text.split('\n'));
    return { end, lead: freshLineLead(bytes.at(-1)), length: bytes.length };
  }
}
