import { randomBytes } from 'node:crypto';
import type { ChatMessage } from '../model/chat-message.js';
import type { Lifetime } from './ephemeral-lifetimes.js';
import type { GrantSeal, Macs } from './grant-seal.js';
import { parseMark, parseMessage, withoutMac } from './history-line.js';
import type { SessionFolderPaths } from './session-folder-paths.js';

/** Which of a session's history files: its messages, or the archive of a compacted one. */
export type HistoryKind = 'messages' | 'archive';

/** Where a history file ends, which the seal of its next message binds. */
export interface HistoryEnd {
  /** How many messages the file holds: the index of the next one. */
  readonly count: number;
  /** How many leading messages the archive accounts for (the compaction mark's count; 0 without one). */
  readonly archived: number;
  /** The sealed compaction mark's random generation (`''` without one): lines of an earlier version of the file do not pass. */
  readonly generation: string;
}

/** A history file with no line yet. */
export const EMPTY_HISTORY: HistoryEnd = { count: 0, archived: 0, generation: '' };

/** What the lines of a session's history file hold, as {@link HistorySeal.read} finds them. */
export interface ReadHistory {
  /** Every message the lines hold, in order, sealed or not (the seal taken off). */
  readonly messages: ChatMessage[];
  /**
   * The lines (1-based) holding a message, or the compaction mark, without a valid seal for
   * this folder, session, file and place in it: planted, copied from another session, file
   * or folder, changed, moved (reordered, or a line before it removed), sealed with another
   * key, or written before history was sealed. None when there is no usable key to check with.
   */
  readonly unsealedLines: readonly number[];
  /** Where the file ends (what the next append seals against). */
  readonly end: HistoryEnd;
  /**
   * What the conversation's earlier lifetimes tell of the {@link unsealedLines}: `'deleted'`
   * when one is sealed for an earlier lifetime (a deleted conversation's line, put back, or
   * read while a delete is under way: its lifetime ends before its files go), never to be
   * sealed anew, as that would bring the deleted conversation back; `'maybe-deleted'` when
   * none passes in the {@link EARLIER_LIFETIMES_CHECKED} latest earlier lifetimes but older
   * ones were not checked (a conversation deleted more often): the lines cannot be told from
   * a deleted conversation's, nor from lines sealed with another key (a restored home, another
   * machine), so sealing them is the user's call, made explicitly (`trustUnsealed`); absent
   * otherwise (no line fails, or every earlier lifetime was checked and none passes).
   */
  readonly earlier?: 'deleted' | 'maybe-deleted';
}

/**
 * Seals the messages a `FileSessionStore` keeps in its folder, which lies in the workspace,
 * where a cloned repository can ship a session file: each line carries, as `mac`, an
 * HMAC-SHA256 under the user's key (the grant key, through {@link GrantSeal.macs}) of the
 * folder's real path, the session, the file (messages or archive), the message's place in
 * it (its index, and the file's compaction mark) and the message. So a planted line, one
 * copied from another session, file or folder, one changed, or one moved (two lines swapped,
 * a line in the middle removed: every later index shifts) does not pass. The compaction mark
 * (`{"archived":N,"generation":G,"mac":M}`, first line) is sealed too, and its random
 * generation is in every seal of the file, so no line of an earlier version of the file
 * passes in a later one. Lines removed from the end are not detected: a file is appended to
 * by several processes, and no count of its lines is kept anywhere else.
 *
 * Older data: lines sealed before seals held places (`rxharness-message-1`, no index) still
 * pass while no line sealed with its place precedes them, so a session written by an
 * earlier version still loads, and the lines it gains are placed after them (removing one of
 * the old lines shifts those). A mark without a seal (an earlier version's) still counts, as
 * every later line's seal binds its count. Without a usable key (said once by the
 * {@link GrantSeal}) lines are written plain and every message is taken unchecked.
 *
 * Deletes: from a conversation's first delete on, every seal binds its lifetime (how many
 * times it was deleted, `GrantSeal.lifetime`), so the lines of a deleted conversation, kept
 * aside and put back, do not pass in the new conversation of the id. A file with lines that
 * fail is checked against the earlier lifetimes, newest first (the one just ended is the
 * delete under way), until one of them passes: {@link ReadHistory.earlier}. That costs a
 * check of the file per earlier lifetime, at most 32 (past them the file may be a deleted
 * conversation's, `'maybe-deleted'`), only for a file that fails anyway.
 */
export class HistorySeal {
  /**
   * @param seal - the store's seal (its grants' key).
   * @param folder - the store's folder: its real path, which the seals bind (another path to
   * it is the same folder), and its named path, which keys its lifetimes with it (`sessionFolderPaths`).
   */
  constructor(
    private readonly seal: GrantSeal,
    private readonly folder: () => Promise<SessionFolderPaths>,
  ) {}

  /** The text to append for `messages` to a file ending at `end`: one line each (sealed when there is a key), each ending in a newline. */
  async lines(sessionId: string, kind: HistoryKind, end: HistoryEnd, messages: readonly ChatMessage[]): Promise<string> {
    if (messages.length === 0) return '';
    const macs = await this.seal.macs();
    const at = macs && (await this.place(sessionId));
    return messages
      .map((m, i) => {
        const message = withoutMac(m);
        const sealed = macs ? { ...message, mac: macs.sign(placedFacts(at!, kind, end, end.count + i, message)) } : message;
        return `${JSON.stringify(sealed)}\n`;
      })
      .join('');
  }

  /** The whole text of a compacted messages file: its mark (`archived` messages archived), then `messages`. */
  async compacted(sessionId: string, archived: number, messages: readonly ChatMessage[]): Promise<string> {
    const macs = await this.seal.macs();
    // Random with a key or without: two compactions of equal files differ by it (`archive-block.ts`).
    const generation = randomBytes(12).toString('hex');
    if (!macs) return `${JSON.stringify({ archived, generation })}\n${await this.lines(sessionId, 'messages', { ...EMPTY_HISTORY, archived, generation }, messages)}`;
    const mark = { archived, generation, mac: macs.sign(markFacts(await this.place(sessionId), archived, generation)) };
    return `${JSON.stringify(mark)}\n${await this.lines(sessionId, 'messages', { count: 0, archived, generation }, messages)}`;
  }

  /**
   * The messages `lines` hold, which lines fail their seal, and where the file ends. A line
   * that is no message (cut by a crash, anything without a string `role`) is passed over
   * and holds no place, as the store always did; so is the mark, on a messages file's first line.
   */
  async read(sessionId: string, kind: HistoryKind, lines: readonly string[]): Promise<ReadHistory> {
    return (await this.readPlaced(sessionId, kind, lines)).read;
  }

  /**
   * An archive's lines as {@link read} finds them, and the seals of the lines it holds besides
   * its messages (the block markers of `archive-block.ts`) for this folder, session and
   * lifetime (`undefined` without a usable key): what a compaction needs, the conversation's
   * lifetime read once for both.
   *
   * @param first - how many messages come before `lines` in the archive when they are only its
   * tail (`archive-tail.ts`: a compaction reads no more): their messages are checked at their
   * places from there, and `unsealedLines` number the lines of `lines`. Lines sealed without
   * their place never pass in a tail: they come only before every archive block.
   */
  async readArchive(sessionId: string, lines: readonly string[], first = 0): Promise<{ read: ReadHistory; markers: Macs | undefined }> {
    const { read, at } = await this.readPlaced(sessionId, 'archive', lines, first);
    const macs = await this.seal.macs();
    if (!macs) return { read, markers: undefined };
    const place = at ?? (await this.place(sessionId)); // an archive without messages read no place
    return { read, markers: { sign: (facts) => macs.sign(markerFacts(place, facts)), check: (facts, mac) => macs.check(markerFacts(place, facts), mac) } };
  }

  /** {@link read}, and the place its seals were checked for (none when nothing was checked). */
  private async readPlaced(sessionId: string, kind: HistoryKind, lines: readonly string[], first = 0): Promise<{ read: ReadHistory; at?: SealedPlace }> {
    const mark = kind === 'messages' ? parseMark(lines[0]) : undefined;
    const found = lines.flatMap((line, index) => {
      const value = parseMessage(line);
      return value ? [{ value, lineNumber: index + 1 }] : [];
    });
    // No key is needed (nor made) for a session without messages or mark.
    const macs = found.length > 0 || mark ? await this.seal.macs() : undefined;
    // Without a key nothing is checked: the mark's generation is taken as it is (it only tells compactions apart).
    if (!macs) return { read: { messages: found.map(({ value }) => withoutMac(value)), unsealedLines: [], end: endOf(first, found, mark, mark !== undefined) } };
    const at = await this.place(sessionId);
    const read = checked(macs, at, kind, mark, found, first);
    const earlier = read.unsealedLines.length > 0 ? sealedEarlier(macs, at, kind, mark, found, first) : undefined;
    return { read: earlier ? { ...read, earlier } : read, at };
  }

  /** The folder by its real path, the session and its lifetime (read anew: another process may have deleted it). */
  private async place(sessionId: string): Promise<SealedPlace> {
    const paths = await this.folder();
    return { folder: paths.folder, sessionId, lifetime: await this.seal.lifetime({ ...paths, sessionId }) };
  }
}

/** A history file's lines holding a message, each with its line number (1-based). */
type FoundLines = readonly { readonly value: ChatMessage & { readonly mac?: unknown }; readonly lineNumber: number }[];

/** A messages file's compaction mark, as `parseMark` reads it. */
type Mark = ReturnType<typeof parseMark>;

/** Where a file of `first` messages, then the `found` ones, ends, after `mark` (its generation only when sealed). */
function endOf(first: number, found: FoundLines, mark: Mark, markSealed: boolean): HistoryEnd {
  return { count: first + found.length, archived: mark?.archived ?? 0, generation: markSealed ? mark!.generation : '' };
}

/** The messages (the `first` before them not read), the lines failing their seal at `at` (its lifetime), and where the file ends. */
function checked(macs: Macs, at: SealedPlace, kind: HistoryKind, mark: Mark, found: FoundLines, first: number): Omit<ReadHistory, 'earlier'> {
  const unsealedLines: number[] = [];
  // Only a sealed mark gives its generation: one stripped of its seal leaves every line failing.
  const markSealed = mark?.mac !== undefined && macs.check(markFacts(at, mark.archived, mark.generation), mark.mac);
  if (mark?.mac !== undefined && !markSealed) unsealedLines.push(1);
  const end = endOf(first, found, mark, markSealed);
  // Lines sealed without their place pass only before any sealed with it (an earlier version's,
  // then this one's), and only in the conversation's first lifetime (no earlier version lived past a delete).
  // A tail (`first` > 0) follows an archive block, which came after places.
  let placed = markSealed || at.lifetime !== 0 || first > 0;
  const messages = found.map(({ value, lineNumber }, index) => {
    const message = withoutMac(value);
    if (macs.check(placedFacts(at, kind, end, first + index, message), value.mac)) placed = true;
    else if (placed || !macs.check(unplacedFacts(at, message), value.mac)) unsealedLines.push(lineNumber);
    return message;
  });
  return { messages, unsealedLines, end };
}

/** How many earlier lifetimes of a conversation a failing history file is checked against, at most (the refusal's message says it). */
export const EARLIER_LIFETIMES_CHECKED = 32;

/**
 * Whether a line (message or mark) passes its seal in an earlier lifetime of the conversation
 * than `at`'s, newest first: a line that passes in one lifetime passes in no other, so one
 * that passes there is a deleted conversation's (`'deleted'`). Only the
 * {@link EARLIER_LIFETIMES_CHECKED} newest are checked (each costs a check of the whole file,
 * and a planted file costs the attacker nothing); a file that fails and was not checked
 * against every earlier lifetime may be a deleted conversation's (`'maybe-deleted'`): refused
 * as such, but not proven one, so `trustUnsealed` seals it when the user names the session
 * (lines sealed with a key since replaced fail in every lifetime alike, and must stay keepable).
 */
function sealedEarlier(macs: Macs, at: SealedPlace, kind: HistoryKind, mark: Mark, found: FoundLines, first: number): ReadHistory['earlier'] {
  // An ephemeral run's task session (a random lifetime) has no earlier lifetime: it never outlives a delete.
  if (typeof at.lifetime !== 'number') return undefined;
  const oldest = Math.max(0, at.lifetime - EARLIER_LIFETIMES_CHECKED);
  for (let lifetime = at.lifetime - 1; lifetime >= oldest; lifetime--) {
    const read = checked(macs, { ...at, lifetime }, kind, mark, found, first);
    if (read.unsealedLines.length < found.length + (mark?.mac !== undefined ? 1 : 0)) return 'deleted';
  }
  return oldest > 0 ? 'maybe-deleted' : undefined; // earlier lifetimes left unchecked: not told apart
}

/** What every seal of a session's history binds: the folder, the session and the conversation's lifetime (`GrantSeal.lifetime`). */
interface SealedPlace {
  readonly folder: string;
  readonly sessionId: string;
  readonly lifetime: Lifetime;
}

/**
 * What a message line's MAC covers: the folder, the session, the file, the file's mark, the
 * line's place and the message; from the first delete on, the lifetime too (lifetime 0 seals
 * as before lifetimes were kept, so lines written earlier still pass).
 */
function placedFacts(at: SealedPlace, kind: HistoryKind, end: HistoryEnd, index: number, message: ChatMessage): readonly unknown[] {
  if (at.lifetime === 0) return ['rxharness-message-2', at.folder, at.sessionId, kind, end.archived, end.generation, index, message];
  return ['rxharness-message-3', at.folder, at.sessionId, at.lifetime, kind, end.archived, end.generation, index, message];
}

/** What the MAC of a line written before seals held places covered. */
function unplacedFacts(at: SealedPlace, message: ChatMessage): readonly unknown[] {
  return ['rxharness-message-1', at.folder, at.sessionId, message];
}

/** What an archive block marker's MAC covers: the place (lifetime always: it came after lifetimes), then the marker's `facts`. */
function markerFacts(at: SealedPlace, facts: readonly unknown[]): readonly unknown[] {
  return ['rxharness-archive-block-1', at.folder, at.sessionId, at.lifetime, ...facts];
}

/** What a compaction mark's MAC covers (with the lifetime from the first delete on, as {@link placedFacts}). */
function markFacts(at: SealedPlace, archived: number, generation: string): readonly unknown[] {
  if (at.lifetime === 0) return ['rxharness-archived-2', at.folder, at.sessionId, archived, generation];
  return ['rxharness-archived-3', at.folder, at.sessionId, at.lifetime, archived, generation];
}
