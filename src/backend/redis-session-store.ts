import type { Redis } from 'ioredis';
import type { ChatMessage } from '../model/chat-message.js';
import type { SessionClaim } from '../session/session-claim.js';
import { assertSessionId } from '../session/session-id.js';
import { checkListRequest } from '../session/session-order.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from '../session/session-store.js';
import { sessionTitle } from '../session/session-title.js';
import type { UnsealedSessionError } from '../session/unsealed-session-error.js';
import { shownKey } from './bad-data-warning.js';
import { archivedCount } from './redis-archive-mark.js';
import type { RedisKeys } from './redis-keys.js';
import { claimLease } from './redis-session-lease.js';
import { listRedisSessions } from './redis-session-list.js';
import { APPEND_SESSION, REPLACE_SESSION, SAVE_GRANT, SAVE_TASK_INFO } from './redis-session-scripts.js';
import { deleteSession } from './redis-session-delete.js';
import { loadTaskInfoOrRefuse } from './redis-session-task-info.js';
import { ownedTaskInfos } from './redis-task-records.js';
import { failed, parsedItems, writeSession, type SessionStoreParts } from './redis-session-write.js';

/**
 * A {@link SessionStore} in Redis, shared by every engine and worker on it: a session is a
 * list of JSON messages (an append is one `RPUSH`, so concurrent writers never interleave
 * inside a write), a task's owner a JSON value, a conversation's grants a list, all of a
 * session's keys (with its archive, summary and task set) kept `sessionTtlMs` after its last write of
 * any kind (so task sessions of finished one-off runs go, and nothing of a session in use
 * expires before the rest). Every
 * answer is still checked by the run (`checkHistory`), as with any store: an item that is
 * not JSON is handed over as its text, which the run skips with a Warning. A run holds its
 * session by a lease (see {@link RedisSessionStore.claim}). An id that is not well-formed
 * Unicode is refused (as UTF-8 in a key, it would name another id's session).
 *
 * @example
 * ```ts
 * const backend = await redisBackend({ url });
 * await backend.sessions.load('ses_1');
 * ```
 */
export class RedisSessionStore implements SessionStore {
  /** @internal */
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** Each write keeps a session (all its keys: messages, archive, task info, grants, summary, task set) this much longer. */
    private readonly ttlMs: number,
    /** How long a run's claim of its session lasts unless renewed (its process died). */
    private readonly leaseMs = 30_000,
  ) {}

  /** What the store's writes and delete (redis-session-write.ts, redis-session-delete.ts) use. */
  get #parts(): SessionStoreParts {
    return { redis: this.redis, keys: this.keys, ttlMs: this.ttlMs };
  }

  /** The session's messages, in order; an unknown session is empty. */
  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    assertSessionId(sessionId);
    const items = await this.redis.lrange(this.keys.session(sessionId), 0, -1).catch(failed('loading a session'));
    return parsedItems(items) as ChatMessage[];
  }

  /**
   * Appends the messages in one script, so a write is never interleaved with another; a
   * conversation (not a task session) is indexed for `list()` at the same time: its score
   * in `<prefix>:sessions` (which lives as long as its newest session, and forgets the ones
   * expired since) and its summary (the title) kept as long as the session.
   */
  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    assertSessionId(sessionId);
    if (messages.length === 0) return;
    await writeSession(this.#parts, APPEND_SESSION, sessionId, sessionTitle(messages), messages.map((m) => JSON.stringify(m)), 'saving a session');
  }

  /**
   * Remembers who owns a task session, for a resume from any engine, and lists it with its
   * conversation's tasks (for `delete`). Refused when the session starting it (its parent) is
   * a task of a deleted conversation.
   */
  async saveTaskInfo(info: TaskSessionInfo): Promise<void> {
    const k = this.keys;
    const parent = info.parentSessionId ?? info.ownerSessionId;
    const keys = [k.taskInfo(info.taskId), k.sessionTasks(info.ownerSessionId), k.deletedTask(parent)];
    await this.redis.eval(SAVE_TASK_INFO, keys.length, ...keys, JSON.stringify(info), this.ttlMs, info.taskId, parent).catch(failed('saving a task'));
  }

  /**
   * What {@link RedisSessionStore.saveTaskInfo} stored for a task; `undefined` (a resume then
   * says the task is unknown) when no record is stored, and for a task record under the id of
   * a conversation the index lists (see `loadTaskRecord`), which the store cannot have written,
   * with a warning `RXHARNESS_BAD_REDIS_DATA`. A record that is there but holds no task info of
   * the task (not JSON, JSON of another shape, a field of the wrong type, another task's or its
   * own owner, a key of another type) is refused with an {@link UnsealedSessionError}
   * (`what: 'task'`) naming the key and what is wrong, as the file store refuses a corrupt task
   * file: resuming it says to start the task anew, rather than that it is unknown.
   */
  async loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    return loadTaskInfoOrRefuse(this.redis, this.keys, taskId);
  }

  /**
   * The task infos of the conversation's tasks: the records of its task set (the one its
   * delete reads) that name it as their owner, as `loadTaskInfo` trusts them. Asked only by a
   * load repairing an interrupted `task`/`multitask` call.
   */
  async listTaskInfos(ownerSessionId: string): Promise<TaskSessionInfo[]> {
    return ownedTaskInfos(this.redis, this.keys, ownerSessionId);
  }

  /**
   * Forgets a session: all its keys (messages, archive, grants, task info, summary, the record
   * of its background results taken or dropped, its note of those dropped unread, which every
   * engine's copy then reads back) and its index entry, and those of the tasks it
   * started (a new conversation taking the id must not resume them, nor read their
   * transcripts), with the tasks' shared records (every engine's
   * copy of them too) and the events of their logs on workers. Each of those tasks is marked
   * deleted for `sessionTtlMs`: a worker still running one writes neither its transcript nor
   * its result back (the write scripts refuse them), whenever its cancel reaches it, and
   * starts no task (`saveTaskInfo` refuses it).
   *
   * Its "always" grants go first, before anything is read: a delete that fails on the way
   * (Redis refusing or dropping a later command) never leaves them to a later conversation of
   * the id. A task is deleted only when its task info names this conversation as its owner
   * and the index does not list it as a conversation (see `ownedTasks`): a record planted or
   * left under the prefix cannot make this delete remove another conversation. A key of another
   * type than the store writes, met on the way (a task's event log, the index), holds nothing of
   * the conversation: left as it is, with a warning (`RXHARNESS_BAD_REDIS_DATA`), not to make the
   * conversation impossible to delete; any other refusal of Redis fails the delete, naming it and
   * saying what deleting again finishes and what only a command by hand does (`checkDeleteAnswers`).
   */
  async delete(sessionId: string): Promise<void> {
    assertSessionId(sessionId);
    await deleteSession(this.#parts, sessionId);
  }

  /**
   * The conversations on this Redis (task sessions left out), the most recently written
   * first (ties by id), titled by the first prompt of their whole transcript; a page of them
   * with a `request`. Two round trips a page, whatever the number of sessions: the index
   * from the request's position, then the page's summaries; no transcript is read. Sessions
   * that expired (`sessionTtlMs`) are pruned from the index as they are found. A `request`
   * that is none (a `NaN` time, a `limit` of -1) is refused with a `RangeError`, as by every
   * store (`checkListRequest`): answered, it was an empty page, read as the end of the list.
   */
  list(request?: SessionListRequest): Promise<SessionSummary[]> {
    try {
      checkListRequest(request);
    } catch (e) {
      return Promise.reject(e);
    }
    return listRedisSessions({ redis: this.redis, keys: this.keys, ttlMs: this.ttlMs, loadArchive: (id) => this.loadArchive(id) }, request);
  }

  /**
   * Replaces a session's messages (a compaction) in one script, so no append falls between:
   * the messages its archive does not hold yet are pushed to the archive, then the session
   * is rewritten, the count of messages the archive accounts for is kept beside it, and the
   * session is indexed (the same script: no failure can leave it half done). Refused, writing
   * nothing, over an archive mark the store cannot have written (see `loadArchive`).
   */
  async replace(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    assertSessionId(sessionId);
    // The mark's key as a refusal names it, shown here: the script quotes it as given.
    const items = [shownKey(this.keys.archived(sessionId)), ...messages.map((m) => JSON.stringify(m))];
    await writeSession(this.#parts, REPLACE_SESSION, sessionId, sessionTitle(messages), items, 'compacting a session');
  }

  /**
   * The whole transcript: the archive, then what the session gained since its last compaction.
   *
   * @throws RedisBackendError naming the key and what to do, when the archive mark is none the
   * store writes, or a key of another type (see `archivedCount`): taken as a number, it hid
   * messages. A messages or archive key of another type fails the read (as `load` and a
   * compaction fail on it), rather than being read as empty.
   */
  async loadArchive(sessionId: string): Promise<readonly ChatMessage[]> {
    assertSessionId(sessionId);
    const k = this.keys;
    const key = k.archived(sessionId);
    const answers = await this.redis.multi().type(key).get(key).lrange(k.session(sessionId), 0, -1).lrange(k.archive(sessionId), 0, -1).exec().catch(failed('loading an archive'));
    // A command's own error fails the read, in the order the compaction meets them (its
    // LLEN, the mark, its push to the archive); but the GET's, the mark's type, which
    // `archivedCount` names.
    const answer = (i: number): unknown => {
      const [error, value] = answers?.[i] ?? [null, undefined];
      return error ? failed('loading an archive')(error) : value;
    };
    const session = (answer(2) ?? []) as string[];
    const type = (answer(0) ?? 'none') as string;
    const live = archivedCount(key, type, type === 'string' ? (answers?.[1]?.[1] as string | null) : null, session.length);
    const archive = (answer(3) ?? []) as string[];
    return parsedItems([...archive, ...session.slice(live)]) as ChatMessage[];
  }

  /**
   * Claims the session for one run across every engine and worker on this Redis: a lease
   * (`SET <prefix>:claim:<id> owner NX PX leaseMs`), renewed every third of `leaseMs` until
   * released, deleted then by a compare-and-delete script, and expired by Redis `leaseMs`
   * after its owner died. Refused, it names the owner that holds it.
   */
  async claim(sessionId: string, owner: string): Promise<SessionClaim> {
    assertSessionId(sessionId);
    return claimLease(this.redis, this.keys.claim(sessionId), owner, this.leaseMs);
  }

  /** The conversation's "always" approvals, oldest first. */
  async loadGrants(sessionId: string): Promise<readonly ApprovalGrant[]> {
    assertSessionId(sessionId);
    const items = await this.redis.lrange(this.keys.grants(sessionId), 0, -1).catch(failed('loading grants'));
    // Checked by the run, which skips (and counts in a Warning) what is not a grant.
    return parsedItems(items) as ApprovalGrant[];
  }

  /** Every engine and worker on this Redis lists what one saved: what it lists is all a conversation has. */
  readonly keepsGrants = true;

  /**
   * Keeps one more "always" approval of the conversation (and the rest of the session as
   * long). With `heldBy` (a worker's task: the runs whose tasks it runs), only while one of
   * them holds the conversation's claim, checked in the same script as the write.
   */
  async saveGrant(sessionId: string, grant: ApprovalGrant, heldBy?: readonly string[]): Promise<void> {
    assertSessionId(sessionId);
    const claim = heldBy ? [this.keys.claim(sessionId)] : [];
    await writeSession(this.#parts, SAVE_GRANT, sessionId, '', [JSON.stringify(grant), ...(heldBy ?? [])], 'saving a grant', claim);
  }
}
