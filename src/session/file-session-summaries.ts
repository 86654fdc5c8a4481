import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage } from '../model/chat-message.js';
import { warnBadSummary } from './bad-summary-warning.js';
import { checkConfined, withRealPath, type ConfinedRoot } from './confined-file.js';
import { messagesFileStem, SESSION_FILE_SUFFIXES, sessionFileStem, sessionIdOfFile } from './session-file-name.js';
import { checkListRequest, newestFirst } from './session-order.js';
import type { SessionListRequest, SessionSummary } from './session-store.js';
import { readSummary, writeSummary } from './session-summary-file.js';
import { sessionTitle } from './session-title.js';
import { errnoOf } from '../errors/errno-of.js';

const { messages: MESSAGES_SUFFIX, summary: SUMMARY_SUFFIX, task: TASK_SUFFIX } = SESSION_FILE_SUFFIXES;

/** How many sessions a store remembers the summary of (beyond that, their next write reads it again). */
const MAX_KNOWN = 10_000;

/** How many summaries are read at once. */
const READ_BATCH = 128;

/** What {@link FileSessionSummaries} needs of its store. */
export interface SummaryStore {
  /** The first prompt of the session's whole transcript, read from its files (for a session written before summaries). Called in the session's write queue. */
  earlierTitle(sessionId: string): Promise<string>;
  /** Runs `task` in the session's write queue. */
  enqueue<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
}

type Listed = SessionSummary & { readonly stem: string };

/**
 * The summaries of a `FileSessionStore`'s conversations, so listing them reads no transcript:
 * a small `<stem>.summary.json` per session holding its real id (which a long id's hashed
 * file name has lost), its title and its last activity, written before each write of the
 * session. A summary from before the last activity was kept gets it once from its
 * transcript file's time (`lstat`).
 */
export class FileSessionSummaries {
  /** What the summaries of recently written sessions hold, by stem: their writes need not read them again. */
  private readonly known = new Map<string, { readonly title: string; readonly time: number }>();

  constructor(
    private readonly root: ConfinedRoot,
    private readonly dir: string,
    private readonly store: SummaryStore,
  ) {}

  /**
   * Before `messages` are written (in the session's queue, the folder made): writes the
   * summary with the title (once a user message is known) and `time` as the last activity
   * (never earlier than the one it had, so a session only ever moves toward the front of
   * the list, which paging relies on; a stored time in the future is none, see
   * `FUTURE_ALLOWANCE_MS`). `root` is the store's root pinned for an operation keeping many
   * (`withRealPath`: a list dating old sessions), else the store's own.
   *
   * @throws {@link UnsafeLinkError} when the summary file is a planted link (as for the transcript).
   */
  async keep(sessionId: string, messages: readonly ChatMessage[], time = Date.now(), root = this.root): Promise<void> {
    const stem = sessionFileStem(sessionId);
    const file = join(this.dir, stem + SUMMARY_SUFFIX);
    let known = this.known.get(stem);
    if (known === undefined) {
      const stored = await readSummary(root, file, stem);
      // No summary yet: a new session, or one written before summaries (its transcript has the first prompt).
      if (typeof stored !== 'object') known = { title: await this.store.earlierTitle(sessionId), time: 0 };
      else known = { title: stored.title, time: stored.lastActivityAt ?? 0 };
    }
    const kept = { title: known.title === '' ? sessionTitle(messages) : known.title, time: Math.max(time, known.time) };
    await writeSummary(root, file, { sessionId, title: kept.title, lastActivityAt: kept.time });
    this.remember(stem, kept);
  }

  /** Forgets what it knew of a deleted session. */
  forget(sessionId: string): void {
    this.known.delete(sessionFileStem(sessionId));
  }

  /**
   * The conversations (task sessions left out), the most recently active first (ties by file
   * stem), a page of them with a `request`: the folder is listed and the summaries read, no
   * transcript. A summary that is not one the store wrote is skipped with a warning; a
   * session written before summaries, or before they kept the time, gets a full one once.
   * The workspace's real path is looked up once for the whole list (`withRealPath`), not per summary read.
   */
  async list(request: SessionListRequest = {}): Promise<SessionSummary[]> {
    checkListRequest(request);
    const root = await withRealPath(this.root);
    let names: string[];
    try {
      await checkConfined(root, this.dir, 'folder');
      names = await readdir(this.dir);
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return [];
      throw e;
    }
    const present = new Set(names);
    const stems = names.flatMap((name) => {
      const stem = messagesFileStem(name);
      if (stem === undefined || present.has(stem + TASK_SUFFIX)) return [];
      // Without a summary only a stem that decodes to its id can be named (not a hashed one).
      return present.has(stem + SUMMARY_SUFFIX) || sessionIdOfFile(stem) !== undefined ? [stem] : [];
    });
    const all: Listed[] = [];
    for (let i = 0; i < stems.length; i += READ_BATCH) {
      const batch = await Promise.all(stems.slice(i, i + READ_BATCH).map((stem) => this.entry(root, stem, present.has(stem + SUMMARY_SUFFIX))));
      for (const listed of batch) if (listed) all.push(listed);
    }
    all.sort((a, b) => newestFirst(a.lastActivityAt, a.stem, b.lastActivityAt, b.stem));
    const after = request.after && { time: request.after.lastActivityAt, stem: sessionFileStem(request.after.sessionId) };
    const rest = after ? all.filter(({ lastActivityAt, stem }) => newestFirst(after.time, after.stem, lastActivityAt, stem) < 0) : all;
    return rest.slice(0, request.limit ?? rest.length).map(({ sessionId, title, lastActivityAt }) => ({ sessionId, title, lastActivityAt }));
  }

  /** One session as listed, from its summary (made or completed once when it has none or no time). */
  private async entry(root: ConfinedRoot, stem: string, summarized: boolean): Promise<Listed | undefined> {
    const stored = summarized ? await this.listed(root, stem) : undefined;
    if (stored?.lastActivityAt !== undefined) return { ...stored, stem, lastActivityAt: stored.lastActivityAt };
    if (summarized && stored === undefined) return undefined; // not ours: warned
    return this.migrated(root, stored?.sessionId ?? sessionIdOfFile(stem)!, stem);
  }

  /**
   * A session written before summaries kept its time, or whose summary holds a time in the
   * future: its summary written, dated by its transcript file, never later than now (a file's
   * time can be planted in the future too).
   */
  private async migrated(root: ConfinedRoot, sessionId: string, stem: string): Promise<Listed | undefined> {
    try {
      await this.store.enqueue(sessionId, async () => {
        const time = await lstat(join(this.dir, stem + MESSAGES_SUFFIX)).then((s) => Math.min(Math.round(s.mtimeMs), Date.now()));
        await this.keep(sessionId, [], time, root);
      });
    } catch (e) {
      // Deleted meanwhile, or a transcript that cannot be read safely (a planted link): not listed; opening it says why.
      if (errnoOf(e) !== 'ENOENT') {
        warnBadSummary(join(this.dir, stem), `The conversation "${sessionId}" is not listed: ${e instanceof Error ? e.message : String(e)}`);
      }
      return undefined;
    }
    const stored = await this.listed(root, stem);
    return stored?.lastActivityAt === undefined ? undefined : { ...stored, stem, lastActivityAt: stored.lastActivityAt };
  }

  /** A listed session's summary, or undefined (with a warning) when the summary is not one of ours. */
  private async listed(root: ConfinedRoot, stem: string): Promise<{ sessionId: string; title: string; lastActivityAt?: number } | undefined> {
    const file = join(this.dir, stem + SUMMARY_SUFFIX);
    const stored = await readSummary(root, file, stem).catch((e: unknown) => `it cannot be read safely (${e instanceof Error ? e.message : String(e)})`);
    if (typeof stored === 'object') return stored;
    if (stored !== 'absent') warnBadSummary(file, `The conversation summary ${file} is not listed: ${stored}. Delete the file if it is not yours; the session's next write makes a new one.`);
    return undefined;
  }

  private remember(stem: string, kept: { readonly title: string; readonly time: number }): void {
    this.known.delete(stem);
    if (this.known.size >= MAX_KNOWN) this.known.delete(this.known.keys().next().value!);
    this.known.set(stem, kept);
  }
}
