import { valueBytes } from '../events/value-bytes.js';
import type { ChatMessage } from '../model/chat-message.js';
import { DeletedConversationError } from './deleted-conversation-error.js';
import { DeletedConversations } from './deleted-conversations.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { assertSessionId } from './session-id.js';
import { checkListRequest, pageOfSessions } from './session-order.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';
import { sessionTitle } from './session-title.js';

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
   * How many sessions (conversations and task sessions together) to keep, default 10,000;
   * the least recently used beyond that are dropped, so a long-lived engine stays bounded.
   */
  readonly maxSessions?: number;
  /**
   * How many delegated tasks' sessions to keep for resume (default 1,000); the least recently
   * used beyond that are dropped with their messages.
   */
  readonly maxTaskSessions?: number;
  /**
   * About how many bytes the sessions' messages (and their archives) may hold together,
   * default 256 MiB (a string counted at two bytes a character); the least recently used
   * beyond that are dropped, as beyond `maxSessions`. The session being written is kept
   * even when it alone is larger.
   */
  readonly maxBytes?: number;
}

/**
 * The default {@link SessionStore}: sessions in a `Map`, gone when the process ends, the
 * least recently used dropped beyond a bound. It answers synchronously.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionStore({ maxSessions: 500 });
 * sessions.append('s1', [{ role: 'user', content: 'hi' }]);
 * sessions.load('s1').length; // 1
 * ```
 */
export class MemorySessionStore implements SessionStore {
  /** Sessions, least recently used first (a Map keeps insertion order). */
  private readonly sessions = new Map<string, ChatMessage[]>();
  /** Task sessions, least recently used first. */
  private readonly tasks = new Map<string, TaskSessionInfo>();
  /**
   * The archive of each compacted session: the messages compactions replaced, and how many
   * of the session's messages are accounted for by it (the compacted ones; later appends are not).
   */
  private readonly archives = new Map<string, { readonly messages: ChatMessage[]; live: number }>();
  /** "Always" approvals by conversation; dropped with their session. */
  private readonly grants = new Map<string, ApprovalGrant[]>();
  private readonly maxSessions: number;
  private readonly maxTaskSessions: number;
  private readonly maxBytes: number;
  /** Each session's bytes (messages and archive), and their sum. */
  private readonly bytes = new Map<string, number>();
  private totalBytes = 0;
  /** When each session last gained or replaced messages (epoch ms), for {@link MemorySessionStore.list}. */
  private readonly activity = new Map<string, number>();
  /** Each session's title, kept as it is written so {@link MemorySessionStore.list} reads no transcript. */
  private readonly titles = new Map<string, string>();
  /** The sessions deleted and not written since: no task is saved for them (as in `FileSessionStore`). */
  private readonly deleted = new DeletedConversations();
  /** Which run holds which session (see {@link MemorySessionStore.claim}). */
  private readonly claims = new LocalClaims();

  constructor(options: MemorySessionStoreOptions = {}) {
    this.maxSessions = bound(options.maxSessions, 10_000, 'maxSessions');
    this.maxTaskSessions = bound(options.maxTaskSessions, 1000, 'maxTaskSessions');
    this.maxBytes = bound(options.maxBytes, 256 * 1024 * 1024, 'maxBytes');
  }

  /**
   * The session's messages (a copy), in order.
   *
   * @throws TypeError for an id that is empty or not well-formed Unicode.
   */
  load(sessionId: string): readonly ChatMessage[] {
    assertSessionId(sessionId);
    const list = this.sessions.get(sessionId);
    this.touch(sessionId, list);
    return list?.slice() ?? [];
  }

  /**
   * Appends to the session (creating it, and dropping the least recently used beyond the bound).
   *
   * @throws TypeError for an id that is empty or not well-formed Unicode.
   */
  append(sessionId: string, messages: readonly ChatMessage[]): void {
    assertSessionId(sessionId);
    this.deleted.written(sessionId);
    const list = this.sessions.get(sessionId);
    this.addBytes(sessionId, messagesBytes(messages));
    this.markActive(sessionId);
    this.keepTitle(sessionId, messages);
    if (list) {
      list.push(...messages);
      this.touch(sessionId, list);
    } else {
      this.sessions.set(sessionId, messages.slice());
      this.touch(sessionId, undefined);
    }
    this.evict(sessionId);
  }

  /** Drops the least recently used sessions beyond the count and the bytes (never `keep`). */
  private evict(keep: string): void {
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.maxSessions && this.totalBytes <= this.maxBytes) break;
      if (oldest !== keep) this.drop(oldest);
    }
  }

  private addBytes(sessionId: string, added: number): void {
    this.bytes.set(sessionId, (this.bytes.get(sessionId) ?? 0) + added);
    this.totalBytes += added;
  }

  /** About how many bytes the sessions hold (see `maxBytes`). */
  get heldBytes(): number {
    return this.totalBytes;
  }

  /**
   * Saves a task's info for resume. Refused with a `DeletedConversationError` when the task's
   * conversation was deleted and not written since: the task would outlive it.
   */
  saveTaskInfo(info: TaskSessionInfo): void {
    if (this.deleted.has(info.ownerSessionId)) throw new DeletedConversationError(info.taskId, info.ownerSessionId);
    this.tasks.delete(info.taskId);
    this.tasks.set(info.taskId, info);
    for (const oldest of this.tasks.keys()) {
      if (this.tasks.size <= this.maxTaskSessions) break;
      this.drop(oldest);
    }
  }

  loadTaskInfo(taskId: string): TaskSessionInfo | undefined {
    return this.tasks.get(taskId);
  }

  /** Replaces a session's messages (a compaction), archiving first what the archive does not hold yet. */
  replace(sessionId: string, messages: readonly ChatMessage[]): void {
    this.deleted.written(sessionId);
    const current = this.sessions.get(sessionId) ?? [];
    const archive = this.archives.get(sessionId) ?? { messages: [], live: 0 };
    archive.messages.push(...current.slice(archive.live));
    archive.live = messages.length;
    this.archives.set(sessionId, archive);
    this.markActive(sessionId);
    this.keepTitle(sessionId, messages);
    if (this.sessions.has(sessionId)) this.sessions.set(sessionId, messages.slice());
    else this.append(sessionId, messages);
    this.touch(sessionId, this.sessions.get(sessionId));
    const held = messagesBytes(this.sessions.get(sessionId) ?? []) + messagesBytes(archive.messages);
    this.addBytes(sessionId, held - (this.bytes.get(sessionId) ?? 0));
    this.evict(sessionId);
  }

  /** The whole transcript: the archive, then what was appended since the last compaction. */
  loadArchive(sessionId: string): readonly ChatMessage[] {
    const current = this.sessions.get(sessionId) ?? [];
    const archive = this.archives.get(sessionId);
    return archive ? [...archive.messages, ...current.slice(archive.live)] : current.slice();
  }

  /**
   * Forgets a session (its messages, archive, grants and task info), and the tasks it
   * started: a new conversation taking the id must not resume them, nor read their transcripts.
   * Its "always" grants go first, as in every store, so no step after them could leave them
   * to a later conversation of the id.
   */
  delete(sessionId: string): void {
    this.deleted.deleted(sessionId);
    this.grants.delete(sessionId);
    this.drop(sessionId);
    for (const [taskId, info] of this.tasks) if (info.ownerSessionId === sessionId) this.drop(taskId);
  }

  /** Forgets one session (an eviction: a conversation past the bounds keeps its tasks, bounded on their own). */
  private drop(sessionId: string): void {
    this.totalBytes -= this.bytes.get(sessionId) ?? 0;
    this.bytes.delete(sessionId);
    this.sessions.delete(sessionId);
    this.archives.delete(sessionId);
    this.activity.delete(sessionId);
    this.titles.delete(sessionId);
    this.tasks.delete(sessionId);
    this.grants.delete(sessionId);
  }

  /**
   * The conversations held (task sessions left out), the most recently active first (ties by
   * id), titled by the first prompt of their whole transcript; a page of them with a
   * `request`. From the titles kept as sessions are written: no transcript is read.
   *
   * @throws RangeError for a `request` that is none (`checkListRequest`: a `NaN` time, a `limit` of -1).
   */
  list(request?: SessionListRequest): SessionSummary[] {
    checkListRequest(request);
    const summaries: SessionSummary[] = [];
    for (const sessionId of this.sessions.keys()) {
      if (this.tasks.has(sessionId)) continue;
      summaries.push({ sessionId, title: this.titles.get(sessionId) ?? '', lastActivityAt: this.activity.get(sessionId) ?? 0 });
    }
    return pageOfSessions(summaries, request);
  }

  /** Marks the session written now; never earlier than before (a clock set back), so a session only moves toward the front of `list()`, which paging relies on. */
  private markActive(sessionId: string): void {
    this.activity.set(sessionId, Math.max(Date.now(), this.activity.get(sessionId) ?? 0));
  }

  /** Keeps the session's title: its first user message, from the first write that has one. */
  private keepTitle(sessionId: string, messages: readonly ChatMessage[]): void {
    if (this.titles.get(sessionId)) return;
    this.titles.set(sessionId, sessionTitle(messages));
  }

  loadGrants(sessionId: string): readonly ApprovalGrant[] {
    return this.grants.get(sessionId)?.slice() ?? [];
  }

  saveGrant(sessionId: string, grant: ApprovalGrant): void {
    const list = this.grants.get(sessionId);
    if (list) list.push(grant);
    else this.grants.set(sessionId, [grant]);
  }

  /**
   * Claims the session for one run, in this process (see {@link SessionStore.claim}): granted
   * unless another owner holds it; released at the run's end, or with the process.
   */
  claim(sessionId: string, owner: string): SessionClaim {
    assertSessionId(sessionId);
    return this.claims.claim(sessionId, owner);
  }

  /** How many sessions are held. */
  get size(): number {
    return this.sessions.size;
  }

  /** Marks a session as just used, so it is the last to be dropped. */
  private touch(sessionId: string, list: ChatMessage[] | undefined): void {
    if (list) {
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, list);
    }
    const info = this.tasks.get(sessionId);
    if (!info) return;
    this.tasks.delete(sessionId);
    this.tasks.set(sessionId, info);
  }
}

function bound(value: number | undefined, fallback: number, name: string): number {
  const max = value ?? fallback;
  if (!Number.isInteger(max) || max < 0) throw new RangeError(`MemorySessionStore: ${name} must be an integer >= 0, got ${max}`);
  return max;
}

/**
 * About how many bytes messages hold (`valueBytes`: their strings at two bytes a character,
 * plus a little per field). Walked, not serialised: a 1 MB prompt costs a length read, not a
 * 1 MB `JSON.stringify`, on every append.
 */
function messagesBytes(messages: readonly ChatMessage[]): number {
  let bytes = 0;
  for (let i = 0; i < messages.length; i++) bytes += valueBytes(messages[i]);
  return bytes;
}
