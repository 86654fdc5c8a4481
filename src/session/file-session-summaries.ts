import { constants } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage } from '../model/chat-message.js';
import { warnBadSummary } from './bad-summary-warning.js';
import { checkConfined, openConfined, writeConfinedFile, type ConfinedRoot } from './confined-file.js';
import { sessionFileStem, sessionIdOfFile } from './session-file-name.js';
import { newestFirst } from './session-order.js';
import type { SessionListRequest, SessionSummary } from './session-store.js';
import { sessionTitle } from './session-title.js';

/** The suffix of a session's summary file, `{"sessionId":"...","title":"..."}`. */
export const SUMMARY_SUFFIX = '.summary.json';

/** A session's transcript file (`<stem>.jsonl`), not its archive nor its grants. */
const TRANSCRIPT = /^(.+?)(\.archive|\.grants)?\.jsonl$/;

/** How many sessions a store remembers as titled (beyond that, their next write reads the summary again). */
const MAX_KNOWN = 10_000;

/** A summary file larger than this is not one the store wrote (an id and an 80-character title). */
const MAX_SUMMARY_BYTES = 64 * 1024;

/** How many transcripts are dated (`lstat`) at once. */
const DATING_BATCH = 128;

/** What {@link FileSessionSummaries} needs of its store. */
export interface SummaryStore {
  /** The first prompt of the session's whole transcript, read from its files (for a session written before summaries). Called in the session's write queue. */
  earlierTitle(sessionId: string): Promise<string>;
  /** Runs `task` in the session's write queue. */
  enqueue<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
}

/**
 * The summaries of a `FileSessionStore`'s conversations, so listing them reads no transcript:
 * a small `<stem>.summary.json` per session holding its real id (which a long id's hashed
 * file name has lost) and its title, written before the session's first message and again
 * once it has a title. A session's last activity is its transcript file's time (`lstat`,
 * which reads nothing).
 */
export class FileSessionSummaries {
  /** Stems whose summary holds a title already: their writes need not look at it again. */
  private readonly titled = new Set<string>();

  constructor(
    private readonly root: ConfinedRoot,
    private readonly dir: string,
    private readonly store: SummaryStore,
  ) {}

  /**
   * Before `messages` are written (in the session's queue, the folder made): makes sure the
   * summary exists and, once a user message is known, holds the title.
   *
   * @throws {@link UnsafeLinkError} when the summary file is a planted link (as for the transcript).
   */
  async keep(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    const stem = sessionFileStem(sessionId);
    if (this.titled.has(stem)) return;
    const file = join(this.dir, stem + SUMMARY_SUFFIX);
    const stored = await this.read(file, stem);
    let title = typeof stored === 'object' ? stored.title : '';
    // No summary yet: a new session, or one written before summaries (its transcript has the first prompt).
    if (title === '' && typeof stored !== 'object') title = await this.store.earlierTitle(sessionId);
    if (title === '') title = sessionTitle(messages);
    if (typeof stored !== 'object' || stored.title !== title) await writeConfinedFile(this.root, file, JSON.stringify({ sessionId, title }));
    if (title !== '') this.remember(stem);
  }

  /** Forgets what it knew of a deleted session. */
  forget(sessionId: string): void {
    this.titled.delete(sessionFileStem(sessionId));
  }

  /**
   * The conversations (task sessions left out), the most recently active first (ties by file
   * stem), a page of them with a `request`: the folder is listed and the transcripts dated,
   * and only the page's summaries are read. A summary that is not one the store wrote is
   * skipped with a warning; a session written before summaries gets one.
   */
  async list(request: SessionListRequest = {}): Promise<SessionSummary[]> {
    let names: string[];
    try {
      await checkConfined(this.root, this.dir, 'folder');
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const present = new Set(names);
    const stems = names.flatMap((name) => {
      const [, stem, other] = TRANSCRIPT.exec(name) ?? [];
      if (stem === undefined || other !== undefined || present.has(`${stem}.task.json`)) return [];
      // Without a summary only a stem that decodes to its id can be named (not a hashed one).
      return present.has(stem + SUMMARY_SUFFIX) || sessionIdOfFile(stem) !== undefined ? [stem] : [];
    });
    const dated = await this.dated(stems);
    dated.sort((a, b) => newestFirst(a.time, a.stem, b.time, b.stem));
    const after = request.after && { time: request.after.lastActivityAt, stem: sessionFileStem(request.after.sessionId) };
    const page: SessionSummary[] = [];
    for (const { stem, time } of dated) {
      if (page.length >= (request.limit ?? Infinity)) break;
      if (after && newestFirst(after.time, after.stem, time, stem) >= 0) continue;
      const named = present.has(stem + SUMMARY_SUFFIX) ? await this.listed(stem) : await this.migrated(sessionIdOfFile(stem)!);
      if (named) page.push({ ...named, lastActivityAt: time });
    }
    return page;
  }

  /** Each transcript's last change, rounded to the millisecond; one gone meanwhile is left out. */
  private async dated(stems: readonly string[]): Promise<{ stem: string; time: number }[]> {
    const dated: { stem: string; time: number }[] = [];
    for (let i = 0; i < stems.length; i += DATING_BATCH) {
      const batch = stems.slice(i, i + DATING_BATCH);
      const times = await Promise.all(batch.map((stem) => lstat(join(this.dir, `${stem}.jsonl`)).then((s) => Math.round(s.mtimeMs), () => undefined)));
      batch.forEach((stem, j) => times[j] !== undefined && dated.push({ stem, time: times[j] }));
    }
    return dated;
  }

  /** A listed session's id and title from its summary, or undefined (with a warning) when the summary is not one of ours. */
  private async listed(stem: string): Promise<{ sessionId: string; title: string } | undefined> {
    const file = join(this.dir, stem + SUMMARY_SUFFIX);
    const stored = await this.read(file, stem).catch((e: unknown) => `it cannot be read safely (${e instanceof Error ? e.message : String(e)})`);
    if (typeof stored === 'object') return stored;
    if (stored !== 'absent') warnBadSummary(file, `The conversation summary ${file} is not listed: ${stored}. Delete the file if it is not yours; the session's next write makes a new one.`);
    return undefined;
  }

  /** A session written before summaries: its title from its transcript, and a summary written for next time. */
  private async migrated(sessionId: string): Promise<{ sessionId: string; title: string } | undefined> {
    try {
      await this.store.enqueue(sessionId, () => this.keep(sessionId, []));
    } catch (e) {
      // A transcript that cannot be read safely (a planted link): not listed; opening it says why.
      warnBadSummary(join(this.dir, sessionFileStem(sessionId)), `The conversation "${sessionId}" is not listed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    return this.listed(sessionFileStem(sessionId));
  }

  /**
   * The summary in `file` if it is one the store wrote for `stem`; `'absent'` when there is
   * none; otherwise why it is not.
   *
   * @throws {@link UnsafeLinkError} for a link, and other file-system errors.
   */
  private async read(file: string, stem: string): Promise<{ sessionId: string; title: string } | string> {
    let text: string;
    try {
      const handle = await openConfined(this.root, file, constants.O_RDONLY);
      try {
        if ((await handle.stat()).size > MAX_SUMMARY_BYTES) return `it is larger than ${MAX_SUMMARY_BYTES} bytes`;
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
      throw e;
    }
    return summaryIn(text, stem);
  }

  private remember(stem: string): void {
    if (this.titled.size >= MAX_KNOWN) this.titled.delete(this.titled.values().next().value!);
    this.titled.add(stem);
  }
}

/** The summary a file's text holds for `stem`, or why it holds none. */
function summaryIn(text: string, stem: string): { sessionId: string; title: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'it is not JSON';
  }
  const { sessionId, title } = (value ?? {}) as { sessionId?: unknown; title?: unknown };
  if (typeof sessionId !== 'string' || typeof title !== 'string') return 'it has no string "sessionId" and "title"';
  let own: string;
  try {
    own = sessionFileStem(sessionId);
  } catch {
    return 'its "sessionId" is not a session id';
  }
  // A summary naming another session (a planted one) would list that id twice, under a false title.
  if (own !== stem) return `it names the session "${sessionId.slice(0, 80)}", whose files have another name`;
  return { sessionId, title: sessionTitle([{ role: 'user', content: title }]) };
}
