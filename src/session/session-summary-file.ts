import { constants } from 'node:fs';
import { openConfined, writeConfinedFile, type ConfinedRoot } from './confined-file.js';
import { readAtMost } from './read-whole.js';
import { sessionFileStem } from './session-file-name.js';
import { sessionTitle } from './session-title.js';
import { errnoOf } from '../errors/errno-of.js';

/** A summary file larger than this is not one the store wrote (an id and an 80-character title); no more than one byte past it is ever read. */
const MAX_SUMMARY_BYTES = 64 * 1024;

/**
 * How far past this process's clock a stored last activity may lie (processes sharing a
 * folder, their clocks a little apart); a later one is read as none. A planted far-future time
 * would otherwise pin its session at the top of the list for ever, as a session's time is
 * never set back.
 */
export const FUTURE_ALLOWANCE_MS = 5 * 60_000;

/** What a session's summary file holds. */
export interface StoredSummary {
  readonly sessionId: string;
  readonly title: string;
  /** When the session was last written, epoch ms; absent in a summary written before it was kept, or holding a time in the future. */
  readonly lastActivityAt?: number;
}

/**
 * The summary in `file` if it is one the store wrote for `stem`; `'absent'` when there is
 * none; otherwise why it is not.
 *
 * @throws {@link UnsafeLinkError} for a link, and other file-system errors.
 */
export async function readSummary(root: ConfinedRoot, file: string, stem: string): Promise<StoredSummary | string> {
  let bytes: Buffer;
  try {
    const handle = await openConfined(root, file, constants.O_RDONLY);
    try {
      bytes = await readAtMost(handle, MAX_SUMMARY_BYTES + 1);
    } finally {
      await handle.close();
    }
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return 'absent';
    throw e;
  }
  if (bytes.length > MAX_SUMMARY_BYTES) return `it is larger than ${MAX_SUMMARY_BYTES} bytes`;
  return summaryIn(bytes.toString('utf8'), stem);
}

/** Writes a session's summary whole (a temporary file renamed over it: a reader sees the old one or the new). */
export function writeSummary(root: ConfinedRoot, file: string, summary: Required<StoredSummary>): Promise<void> {
  return writeConfinedFile(root, file, JSON.stringify(summary));
}

/** The summary a file's text holds for `stem`, or why it holds none. */
function summaryIn(text: string, stem: string): StoredSummary | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'it is not JSON';
  }
  const { sessionId, title, lastActivityAt } = (value ?? {}) as { sessionId?: unknown; title?: unknown; lastActivityAt?: unknown };
  if (typeof sessionId !== 'string' || typeof title !== 'string') return 'it has no string "sessionId" and "title"';
  let own: string;
  try {
    own = sessionFileStem(sessionId);
  } catch {
    return 'its "sessionId" is not a session id';
  }
  // A summary naming another session (a planted one) would list that id twice, under a false title.
  if (own !== stem) return `it names the session "${sessionId.slice(0, 80)}", whose files have another name`;
  const named = { sessionId, title: sessionTitle([{ role: 'user', content: title }]) };
  // A time that is no finite number, or lies in the future (see FUTURE_ALLOWANCE_MS), is read as none: the transcript's time stands in for it once.
  const known = typeof lastActivityAt === 'number' && Number.isFinite(lastActivityAt) && lastActivityAt <= Date.now() + FUTURE_ALLOWANCE_MS;
  return known ? { ...named, lastActivityAt } : named;
}
