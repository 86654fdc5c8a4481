import type { ChatMessage } from '../model/chat-message.js';
import { appendingTo, freshLineLeadOf } from './append-lines.js';
import { archiveBlockLine, archiveBlockOf, archivedAlready } from './archive-block.js';
import { archiveTail } from './archive-tail.js';
import { writeConfinedFile } from './confined-file.js';
import { HistoryAppender } from './history-appender.js';
import { isOneShotTask, type ReadTaskFile } from './one-shot-task.js';
import { EMPTY_HISTORY, type HistoryEnd, type HistoryKind, type HistorySeal, type ReadHistory } from './history-seal.js';
import type { SessionFolder } from './session-folder.js';
import type { SessionQueues } from './session-queues.js';
import { sessionTitle } from './session-title.js';
import { UnsealedSessionError } from './unsealed-session-error.js';

/** What {@link FileSessionHistory} needs of its store besides the folder and the queues. */
export interface HistoryOptions {
  /** Seals the messages written and checks those read. */
  readonly seal: HistorySeal;
  /** The sessions whose unsealed messages the user trusts, until their first load has sealed them. */
  readonly trustUnsealed?: readonly string[];
  /** Writes the session's summary before its messages (`FileSessionSummaries.keep`). */
  readonly keepSummary: (sessionId: string, messages: readonly ChatMessage[]) => Promise<void>;
  /**
   * Reads a task file as its seal allows (the store's `TaskSeal.read`): only a sealed one can
   * make a task session read as a conversation's rather than a one-shot run's (`isOneShotTask`).
   */
  readonly readTask: ReadTaskFile;
}

/**
 * The history files of a `FileSessionStore`'s sessions: `<id>.jsonl` (the messages, one
 * sealed line each, appended) and, once compacted, `<id>.archive.jsonl` (the whole
 * transcript, each block a compaction appended after a line naming it: `archive-block.ts`,
 * so a compaction done again after a crash adds nothing twice). Loading checks every seal
 * ({@link UnsealedSessionError} when one fails); each write goes through the session's queue,
 * its summary first. See the store's TSDoc.
 */
export class FileSessionHistory {
  /** Appends sealed messages at their places, and reads them. */
  private readonly appender: HistoryAppender;
  private readonly seal: HistorySeal;
  private readonly trusted: Set<string>;
  private readonly keepSummary: HistoryOptions['keepSummary'];
  private readonly readTask: ReadTaskFile;

  constructor(
    private readonly folder: SessionFolder,
    private readonly queues: SessionQueues,
    options: HistoryOptions,
  ) {
    this.seal = options.seal;
    this.appender = new HistoryAppender(folder.root, options.seal);
    this.trusted = new Set(options.trustUnsealed);
    this.keepSummary = options.keepSummary;
    this.readTask = options.readTask;
  }

  /** The session's messages, checked (see `FileSessionStore.load`). */
  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.settled(sessionId);
    return (await this.readSession(sessionId)).messages;
  }

  /** The whole transcript: the archive, then what the session gained since its last compaction (checked as `load`). */
  async loadArchive(sessionId: string): Promise<readonly ChatMessage[]> {
    await this.settled(sessionId);
    const { messages, live } = await this.readSession(sessionId);
    return [...(await this.checkedHistory(sessionId, 'archive')).messages, ...messages.slice(live)];
  }

  /** Appends `messages`, in the session's queue. */
  append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    return this.queues.enqueue(sessionId, () => this.write(sessionId, messages));
  }

  /** Replaces the session's messages (a compaction, see `FileSessionStore.replace`), in the session's queue. */
  replace(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    return this.queues.enqueue(sessionId, () => this.rewrite(sessionId, messages));
  }

  /**
   * The first prompt of the whole transcript, for the summary of a session written before
   * summaries. Read unchecked: it is a label in `list` only (a planted summary could name
   * any), and loading the session still checks every message.
   */
  async earlierTitle(sessionId: string): Promise<string> {
    const read = async (kind: HistoryKind): Promise<ChatMessage[]> => (await this.seal.read(sessionId, kind, await this.folder.readLines(this.folder.file(sessionId, kind)))).messages;
    return sessionTitle([...(await read('archive')), ...(await read('messages'))]);
  }

  /** Forgets where `file` ends (removed): the next append reads it. */
  forget(file: string): void {
    this.appender.forget(file);
  }

  /** Waits for the session's writes queued so far; for a trusted session, seals what it holds first (once). */
  private async settled(sessionId: string): Promise<void> {
    if (this.trusted.has(sessionId)) await this.queues.enqueue(sessionId, () => this.sealTrusted(sessionId));
    else await this.queues.idle(sessionId);
  }

  /**
   * Rewrites each of a trusted session's files holding an unsealed message with all its
   * messages sealed, then trusts no more. Neither file is touched when one holds lines proven
   * a deleted conversation's ({@link ReadHistory.earlier} `'deleted'`), nor when the session
   * is a one-shot run's task (`isOneShotTask`: its files load only in the process that ran it,
   * and no one names it to trust it): the load is refused as untrusted. Lines only possibly a
   * deleted conversation's (`'maybe-deleted'`) are sealed: the user named the session, and
   * lines sealed with a key since replaced look just the same.
   */
  private async sealTrusted(sessionId: string): Promise<void> {
    const files = [];
    for (const kind of ['messages', 'archive'] as const) {
      const file = this.folder.file(sessionId, kind);
      const read = await this.seal.read(sessionId, kind, await this.folder.readLines(file));
      if (read.earlier === 'deleted') throw await this.refusal(sessionId, file, read);
      if (read.unsealedLines.length > 0) files.push({ kind, file, read });
    }
    const first = files[0];
    if (first !== undefined && (await isOneShotTask(this.folder, sessionId, this.readTask))) throw new UnsealedSessionError(sessionId, first.file, first.read.unsealedLines, 'one-shot-task');
    for (const { kind, file, read: { messages, end } } of files) {
      const text = kind === 'messages' ? this.seal.compacted(sessionId, end.archived, messages) : this.seal.lines(sessionId, kind, EMPTY_HISTORY, messages);
      await this.writeWhole(file, await text);
    }
    this.trusted.delete(sessionId);
  }

  /** The session's messages, checked, how many of them (from the start) its archive accounts for, and where the file ends. */
  private async readSession(sessionId: string): Promise<{ messages: ChatMessage[]; live: number; end: HistoryEnd }> {
    const { messages, end } = await this.checkedHistory(sessionId, 'messages');
    return { messages, live: end.archived, end };
  }

  /**
   * One of the session's history files, read.
   *
   * @throws {@link UnsealedSessionError} when a line has no valid seal: none is taken as the
   * conversation (`what: 'deleted'` when one is a deleted conversation's, `'maybe-deleted'`
   * when it cannot be told apart from one).
   */
  private async checkedHistory(sessionId: string, kind: HistoryKind): Promise<ReadHistory> {
    const file = this.folder.file(sessionId, kind);
    const read = await this.appender.read(file, sessionId, kind);
    if (read.unsealedLines.length > 0) throw await this.refusal(sessionId, file, read);
    return read;
  }

  /**
   * The refusal of a history file with lines failing their seal: a deleted conversation's (no
   * `--trust-session` advice), possibly one, a one-shot run's task session's (`isOneShotTask`:
   * no `--trust-session` advice either, it loads only in the process that ran it), or unsealed.
   */
  private async refusal(sessionId: string, file: string, read: ReadHistory): Promise<UnsealedSessionError> {
    const what = read.earlier ?? ((await isOneShotTask(this.folder, sessionId, this.readTask)) ? 'one-shot-task' : 'history');
    return new UnsealedSessionError(sessionId, file, read.unsealedLines, what);
  }

  private async write(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.folder.mkdir();
    // The summary first: a transcript never exists without one (but from before summaries).
    await this.keepSummary(sessionId, messages);
    await this.appender.append(this.folder.file(sessionId, 'messages'), sessionId, 'messages', messages);
  }

  private async rewrite(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.folder.mkdir();
    // Checked before anything is written: an unsealed message must not be sealed into the archive.
    const current = await this.readSession(sessionId);
    await this.keepSummary(sessionId, messages);
    const unarchived = current.messages.slice(current.live);
    if (unarchived.length > 0) await this.archive(sessionId, current.end, unarchived);
    // The mark has no `role`, so reading skips it like a cut line.
    await this.writeWhole(this.folder.file(sessionId, 'messages'), await this.seal.compacted(sessionId, messages.length, messages));
  }

  /**
   * Appends to the archive the messages of the messages file ending at `end` that it does not
   * hold, after a line naming them: a compaction run again after a crash (the archive written,
   * the messages file not yet) appends only what the archive does not end with already. Only
   * the archive's tail is read ({@link archiveEnd}), the block line and messages appended in one write.
   */
  private async archive(sessionId: string, end: HistoryEnd, unarchived: readonly ChatMessage[]): Promise<void> {
    const file = this.folder.file(sessionId, 'archive');
    const { lines, first, read: archive, markers } = await this.archiveEnd(sessionId, file);
    const block = archiveBlockOf(end, archive.end.count, unarchived);
    const done = archivedAlready(lines, first, archive.unsealedLines, block, unarchived, markers);
    const text = (done === undefined ? archiveBlockLine(block, markers) : '') + (await this.seal.lines(sessionId, 'archive', archive.end, unarchived.slice(done ?? 0)));
    if (text !== '') await appendingTo(this.folder.root, file, async (handle) => handle.appendFile((await freshLineLeadOf(handle)) + text));
    this.appender.forget(file); // grown here, not through the appender
  }

  /**
   * The archive's tail as a compaction needs it (`archiveTail`), read and checked, with the
   * block markers' seals (one read of the conversation's lifetime for both). The whole file
   * when the tail's first message fails its seal at the place the last block's line gives: that
   * line's count of earlier messages does not hold (a line copied or moved there), so the
   * messages are counted as they lie.
   */
  private async archiveEnd(sessionId: string, file: string): Promise<{ lines: readonly string[]; first: number } & Awaited<ReturnType<HistorySeal['readArchive']>>> {
    const tail = await archiveTail(this.folder.root, file);
    if (tail) {
      const read = await this.seal.readArchive(sessionId, tail.lines, tail.first);
      if (tail.whole || !read.read.unsealedLines.includes(1)) return { lines: tail.lines, first: tail.first, ...read };
    }
    const lines = await this.folder.readLines(file);
    return { lines, first: 0, ...(await this.seal.readArchive(sessionId, lines)) };
  }

  /** Writes a history file whole (a temporary file renamed over it), ending with a newline. */
  private async writeWhole(file: string, text: string): Promise<void> {
    await writeConfinedFile(this.folder.root, file, text);
    this.appender.forget(file); // another file now: the next append reads where it ends
  }
}
