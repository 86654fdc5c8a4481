import type { ChatMessage } from '../model/chat-message.js';
import { DeletedConversations } from './deleted-conversations.js';
import { MemorySessionBytes, messagesBytes } from './memory-session-bytes.js';
import { MemorySessionIndex } from './memory-session-index.js';
import { memorySessionBounds, type MemorySessionBounds, type MemorySessionStoreOptions } from './memory-session-options.js';
import { LocalClaims, type SessionClaim } from './session-claim.js';
import { assertSessionId } from './session-id.js';
import { checkListRequest, pageOfSessions } from './session-order.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from './session-store.js';

// Named from here, as before the options had their own module.
export type { MemorySessionStoreOptions } from './memory-session-options.js';

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
  private readonly bounds: MemorySessionBounds;
  /** Each session's bytes (messages and archive), and their sum. */
  private readonly bytes = new MemorySessionBytes();
  /** Each session's title and last activity, for {@link MemorySessionStore.list}. */
  private readonly index = new MemorySessionIndex();
  /** The conversations deleted and not written since: no task is saved for them (shared with `FileSessionStore`). */
  private readonly deleted = new DeletedConversations();
  /** Which run holds which session (see {@link MemorySessionStore.claim}). */
  private readonly claims = new LocalClaims();

  constructor(options: MemorySessionStoreOptions = {}) {
    this.bounds = memorySessionBounds(options);
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
    this.bytes.add(sessionId, messagesBytes(messages));
    this.index.written(sessionId, messages);
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
      if (this.sessions.size <= this.bounds.maxSessions && this.bytes.total <= this.bounds.maxBytes) break;
      if (oldest !== keep) this.drop(oldest);
    }
  }

  /** About how many bytes the sessions hold (see `maxBytes`). */
  get heldBytes(): number {
    return this.bytes.total;
  }

  /**
   * Saves a task's info for resume. Refused with a `DeletedConversationError` when the task's
   * conversation was deleted and not written since: the task would outlive it.
   */
  saveTaskInfo(info: TaskSessionInfo): void {
    const refused = this.deleted.refusal(info);
    if (refused) throw refused;
    this.tasks.delete(info.taskId);
    this.tasks.set(info.taskId, info);
    for (const oldest of this.tasks.keys()) {
      if (this.tasks.size <= this.bounds.maxTaskSessions) break;
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
    this.index.written(sessionId, messages);
    if (this.sessions.has(sessionId)) this.sessions.set(sessionId, messages.slice());
    else this.append(sessionId, messages);
    this.touch(sessionId, this.sessions.get(sessionId));
    const held = messagesBytes(this.sessions.get(sessionId) ?? []) + messagesBytes(archive.messages);
    this.bytes.add(sessionId, held - this.bytes.of(sessionId));
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
    // Settled from the tasks held now: a task session (not one removed with its conversation) is no conversation.
    this.deleted.deleted(sessionId)(this.tasks.get(sessionId));
    this.grants.delete(sessionId);
    this.drop(sessionId);
    for (const [taskId, info] of this.tasks) if (info.ownerSessionId === sessionId) this.drop(taskId);
  }

  /** Forgets one session (an eviction: a conversation past the bounds keeps its tasks, bounded on their own). */
  private drop(sessionId: string): void {
    this.bytes.drop(sessionId);
    this.sessions.delete(sessionId);
    this.archives.delete(sessionId);
    this.index.forget(sessionId);
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
    for (const sessionId of this.sessions.keys()) if (!this.tasks.has(sessionId)) summaries.push(this.index.summary(sessionId));
    return pageOfSessions(summaries, request);
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
