import type { ChatMessage } from '../model/chat-message.js';
import { DeletedConversations, isTaskRecord } from './deleted-conversations.js';
import { DeleteWatchers } from './memory-session-deletes.js';
import { MemorySessionEntries } from './memory-session-entries.js';
import { memorySessionBounds, type MemorySessionStoreOptions } from './memory-session-options.js';
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
  /** The messages, archives and task info, bounded (`memory-session-entries.ts`); dropping one drops its grants. */
  private readonly entries: MemorySessionEntries;
  /** "Always" approvals by conversation; dropped with their session. */
  private readonly grants = new Map<string, ApprovalGrant[]>();
  /** The conversations deleted and not written since: no task is saved for them (shared with `FileSessionStore`). */
  private readonly deleted = new DeletedConversations();
  /** Which run holds which session (see {@link MemorySessionStore.claim}); a session given up may be evicted again. */
  private readonly claims = new LocalClaims(() => this.entries.trim());
  /** Who is told of each conversation's delete (see {@link MemorySessionStore.watchDeletes}). */
  private readonly deleteWatchers = new DeleteWatchers();

  constructor(options: MemorySessionStoreOptions = {}) {
    // A session a run holds is never evicted: the run would go on writing to an empty one.
    this.entries = new MemorySessionEntries(memorySessionBounds(options), (id) => this.grants.delete(id), (id) => this.claims.has(id));
  }

  /**
   * The session's messages (a copy), in order.
   *
   * @throws TypeError for an id that is empty or not well-formed Unicode.
   */
  load(sessionId: string): readonly ChatMessage[] {
    assertSessionId(sessionId);
    return this.entries.load(sessionId);
  }

  /**
   * Appends to the session (creating it, and dropping the least recently used beyond the bound).
   *
   * @throws TypeError for an id that is empty or not well-formed Unicode.
   */
  append(sessionId: string, messages: readonly ChatMessage[]): void {
    assertSessionId(sessionId);
    this.deleted.written(sessionId);
    this.entries.append(sessionId, messages);
  }

  /** About how many bytes the sessions hold (see `maxBytes`). */
  get heldBytes(): number {
    return this.entries.heldBytes;
  }

  /**
   * Saves a task's info for resume. Refused with a `DeletedConversationError` when the task's
   * conversation was deleted and not written since: the task would outlive it.
   */
  saveTaskInfo(info: TaskSessionInfo): void {
    const refused = this.deleted.refusal(info);
    if (refused) throw refused;
    this.entries.saveTask(info);
  }

  loadTaskInfo(taskId: string): TaskSessionInfo | undefined {
    return this.entries.tasks.get(taskId);
  }

  /** The task infos held of the conversation's tasks (those dropped past `maxTaskSessions` are no longer held). */
  listTaskInfos(ownerSessionId: string): TaskSessionInfo[] {
    return this.entries.tasks.infosOf(ownerSessionId);
  }

  /**
   * Replaces a session's messages (a compaction), archiving first what the archive does not hold yet.
   *
   * @throws TypeError for an id that is empty or not well-formed Unicode (no such session is held).
   */
  replace(sessionId: string, messages: readonly ChatMessage[]): void {
    // Checked first: as an append, an id that is none would be refused after its archive was kept.
    assertSessionId(sessionId);
    this.deleted.written(sessionId);
    this.entries.replace(sessionId, messages);
  }

  /** The whole transcript: the archive, then what was appended since the last compaction. */
  loadArchive(sessionId: string): readonly ChatMessage[] {
    return this.entries.loadArchive(sessionId);
  }

  /**
   * Forgets a session (its messages, archive, grants and task info), and the tasks it
   * started: a new conversation taking the id must not resume them, nor read their transcripts.
   * Its "always" grants go first, as in every store, so no step after them could leave them
   * to a later conversation of the id. Every engine sharing the store is told of a
   * conversation's delete: each stops its background tasks of it and forgets their results.
   */
  delete(sessionId: string): void {
    // Settled from the tasks held now, or dropped past the bounds (marked): a task session (not one removed with its conversation) is no conversation.
    const record = this.entries.tasks.record(sessionId);
    this.deleted.deleted(sessionId)(record);
    this.grants.delete(sessionId);
    const taskIds = this.entries.delete(sessionId);
    // A task session runs no tasks of its own: its delete (an ephemeral run's end) tells no engine.
    if (!isTaskRecord(sessionId, record)) this.deleteWatchers.tell(sessionId, Object.freeze(taskIds));
  }

  /**
   * Tells `watcher` of every conversation this store deletes from now on (see
   * {@link SessionStore.watchDeletes}), synchronously within `delete`, with the ids of the
   * tasks deleted with it. Held until the returned function is called. A watcher that throws
   * is passed over: the delete is done.
   *
   * @throws TypeError when `watcher` is not a function.
   */
  watchDeletes(watcher: (sessionId: string, taskIds: readonly string[]) => void): () => void {
    return this.deleteWatchers.watch(watcher);
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
    return pageOfSessions(this.entries.conversations(), request);
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
    return this.entries.size;
  }
}
